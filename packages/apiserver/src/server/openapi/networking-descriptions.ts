/**
 * Field documentation of networking.k8s.io ServiceCIDR and IPAddress (doc
 * comments of k8s.io/api/networking/v1 types.go; v1beta1 has the same text).
 */
import { typeMetaDocs, type FieldDoc } from "./service-descriptions.ts";

const conv = "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md";
const metadata: FieldDoc = { description: `Standard object's metadata. More info: ${conv}#metadata` };

function forVersion(version: string): Record<string, Record<string, FieldDoc>> {
  const p = `io.k8s.api.networking.${version}.`;
  return {
    [`${p}ServiceCIDR`]: {
      ...typeMetaDocs,
      "": {
        description:
          "ServiceCIDR defines a range of IP addresses using CIDR format (e.g. 192.168.0.0/24 or 2001:db2::/64). This range is used to allocate ClusterIPs to Service objects.",
      },
      metadata,
      spec: { description: `spec is the desired state of the ServiceCIDR. More info: ${conv}#spec-and-status` },
      status: { description: `status represents the current state of the ServiceCIDR. More info: ${conv}#spec-and-status` },
    },
    [`${p}ServiceCIDRSpec`]: {
      "": { description: "ServiceCIDRSpec define the CIDRs the user wants to use for allocating ClusterIPs for Services." },
      cidrs: {
        description:
          'CIDRs defines the IP blocks in CIDR notation (e.g. "192.168.0.0/24" or "2001:db8::/64") from which to assign service cluster IPs. Max of two CIDRs is allowed, one of each IP family. This field is immutable.',
      },
    },
    [`${p}ServiceCIDRStatus`]: {
      "": { description: "ServiceCIDRStatus describes the current state of the ServiceCIDR." },
      conditions: {
        description: "conditions holds an array of metav1.Condition that describe the state of the ServiceCIDR. Current service state",
      },
    },
    [`${p}ServiceCIDRList`]: {
      ...typeMetaDocs,
      "": { description: "ServiceCIDRList contains a list of ServiceCIDR objects." },
      items: { description: "items is the list of ServiceCIDRs." },
    },
    [`${p}IPAddress`]: {
      ...typeMetaDocs,
      "": {
        description:
          "IPAddress represents a single IP of a single IP Family. The object is designed to be used by APIs that operate on IP addresses. The object is used by the Service core API for allocation of IP addresses. An IP address can be represented in different formats, to guarantee the uniqueness of the IP, the name of the object is the IP address in canonical format, four decimal digits separated by dots suppressing leading zeros for IPv4 and the representation defined by RFC 5952 for IPv6. Valid: 192.168.1.5 or 2001:db8::1 or 2001:db8:aaaa:bbbb:cccc:dddd:eeee:1 Invalid: 10.01.2.3 or 2001:db8:0:0:0::1",
      },
      metadata,
      spec: { description: `spec is the desired state of the IPAddress. More info: ${conv}#spec-and-status` },
    },
    [`${p}IPAddressSpec`]: {
      "": { description: "IPAddressSpec describe the attributes in an IP Address." },
      parentRef: {
        description: "ParentRef references the resource that an IPAddress is attached to. An IPAddress must reference a parent object.",
      },
    },
    [`${p}ParentReference`]: {
      "": { description: "ParentReference describes a reference to a parent object." },
      group: { description: "Group is the group of the object being referenced." },
      resource: { description: "Resource is the resource of the object being referenced." },
      namespace: { description: "Namespace is the namespace of the object being referenced." },
      name: { description: "Name is the name of the object being referenced." },
    },
    [`${p}IPAddressList`]: {
      ...typeMetaDocs,
      "": { description: "IPAddressList contains a list of IPAddress." },
      items: { description: "items is the list of IPAddresses." },
    },
  };
}

export const networkingDocs: Readonly<Record<string, Readonly<Record<string, FieldDoc>>>> = {
  ...forVersion("v1"),
  ...forVersion("v1beta1"),
  ...forVersion("v1alpha1"),
};
