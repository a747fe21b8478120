import { describe, expect, it } from "vitest";
import { parseConfigurationMap } from "../server/resourceconfig/helpers.ts";
import { resourceTable } from "../server/resources.ts";
import { reviewTable } from "../server/reviews.ts";
import { servedAPIs } from "./api-resource-config.ts";
import { parseUpOptions } from "./options.ts";

const served = (flag: string): string[] => {
  const a = servedAPIs(flag);
  return [...a.resources, ...a.reviews]
    .filter((r) => r.group === "networking.k8s.io" || r.group === "authentication.k8s.io")
    .map((r) => `${r.group}/${r.version}/${r.resource}`);
};

const authnV1 = ["authentication.k8s.io/v1/selfsubjectreviews", "authentication.k8s.io/v1/tokenreviews"];
const ingressV1 = ["networking.k8s.io/v1/ingressclasses", "networking.k8s.io/v1/ingresses", "networking.k8s.io/v1/networkpolicies"];
const ga = [...ingressV1, "networking.k8s.io/v1/servicecidrs", "networking.k8s.io/v1/ipaddresses", ...authnV1];

describe("parseConfigurationMap (cliflag ConfigurationMap)", () => {
  it.each([
    ["a/v1=true", [["a/v1", "true"]]],
    [
      " a/v1 = false ,b/v2",
      [
        ["a/v1", "false"],
        ["b/v2", ""],
      ],
    ],
    ["a/v1=x=y,,", [["a/v1", "x=y"]]],
    ["a/v1=true,a/v1=false", [["a/v1", "false"]]],
  ])("%j", (text, want) => {
    expect([...parseConfigurationMap(text)]).toEqual(want);
  });
});

describe("servedAPIs (--runtime-config, as kube-apiserver 1.33)", () => {
  it.each([
    ["", ga],
    [
      "networking.k8s.io/v1alpha1=true",
      [...ga.slice(0, 5), "networking.k8s.io/v1alpha1/servicecidrs", "networking.k8s.io/v1alpha1/ipaddresses", ...authnV1],
    ],
    [
      "networking.k8s.io/v1alpha1",
      [...ga.slice(0, 5), "networking.k8s.io/v1alpha1/servicecidrs", "networking.k8s.io/v1alpha1/ipaddresses", ...authnV1],
    ],
    [
      "networking.k8s.io/v1beta1=1",
      [...ga.slice(0, 5), "networking.k8s.io/v1beta1/servicecidrs", "networking.k8s.io/v1beta1/ipaddresses", ...authnV1],
    ],
    ["networking.k8s.io/v1alpha1/ipaddresses=true", [...ga.slice(0, 5), "networking.k8s.io/v1alpha1/ipaddresses", ...authnV1]],
    [
      "networking.k8s.io/v1alpha1=true,networking.k8s.io/v1alpha1/servicecidrs=false",
      [...ga.slice(0, 5), "networking.k8s.io/v1alpha1/ipaddresses", ...authnV1],
    ],
    ["authentication.k8s.io/v1beta1=true", [...ga, "authentication.k8s.io/v1beta1/selfsubjectreviews"]],
    [
      "api/alpha=true",
      [
        ...ga.slice(0, 5),
        "networking.k8s.io/v1alpha1/servicecidrs",
        "networking.k8s.io/v1alpha1/ipaddresses",
        ...authnV1,
        "authentication.k8s.io/v1alpha1/selfsubjectreviews",
      ],
    ],
    [
      "api/beta=true",
      [
        ...ga.slice(0, 5),
        "networking.k8s.io/v1beta1/servicecidrs",
        "networking.k8s.io/v1beta1/ipaddresses",
        ...authnV1,
        "authentication.k8s.io/v1beta1/selfsubjectreviews",
      ],
    ],
    [
      "api/all=true",
      [
        ...ga.slice(0, 5),
        "networking.k8s.io/v1beta1/servicecidrs",
        "networking.k8s.io/v1beta1/ipaddresses",
        "networking.k8s.io/v1alpha1/servicecidrs",
        "networking.k8s.io/v1alpha1/ipaddresses",
        ...authnV1,
        "authentication.k8s.io/v1beta1/selfsubjectreviews",
        "authentication.k8s.io/v1alpha1/selfsubjectreviews",
      ],
    ],
    // Versions beat api/all, resources beat versions.
    [
      "api/all=true,networking.k8s.io/v1beta1=false,authentication.k8s.io/v1alpha1/selfsubjectreviews=false",
      [
        ...ga.slice(0, 5),
        "networking.k8s.io/v1alpha1/servicecidrs",
        "networking.k8s.io/v1alpha1/ipaddresses",
        ...authnV1,
        "authentication.k8s.io/v1beta1/selfsubjectreviews",
      ],
    ],
    ["networking.k8s.io/v1=false", authnV1],
  ])("%j", (flag, want) => {
    expect(served(flag)).toEqual(want);
  });

  it.each([
    ["api/all=false", "invalid key with only api/all=false"],
    ["api/all=yes", "invalid value api/all=yes"],
    ["api/alpha", "invalid value api/alpha="],
    [
      "networking.k8s.io/v1alpha1=maybe",
      'invalid value of networking.k8s.io/v1alpha1: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax',
    ],
    ["networking.k8s.io/v2=true", "group version networking.k8s.io/v2 that has not been registered"],
    [
      "networking.k8s.io/v1alpha1/ServiceCIDRs=true",
      'invalid key networking.k8s.io/v1alpha1/ServiceCIDRs: group/version/resource and resource is always lowercase plural, not "ServiceCIDRs"',
    ],
    ["networking.k8s.io=true", "runtime-config invalid key networking.k8s.io"],
    ["a/b/c/d=true", "runtime-config invalid key a/b/c/d"],
    ["foo.io/v1=true,bar.io/v1=false", "unknown api groups foo.io,bar.io"],
  ])("%j: %s", (flag, message) => {
    expect(() => servedAPIs(flag)).toThrow(new Error(message));
  });

  it("the default is the server's default tables", () => {
    expect(servedAPIs("")).toEqual({ resources: resourceTable, reviews: reviewTable });
  });

  it("refuses to switch off the core group servicenet cannot run without", () => {
    expect(() => servedAPIs("api/all=false,networking.k8s.io/v1=true")).toThrow("the core group v1 (namespaces) cannot be disabled");
  });

  it("servicenet up --runtime-config: validated at parse time, passed on as given", () => {
    expect(parseUpOptions([]).runtimeConfig).toBe("");
    expect(parseUpOptions(["--runtime-config", "networking.k8s.io/v1alpha1=true"]).runtimeConfig).toBe("networking.k8s.io/v1alpha1=true");
    expect(parseUpOptions(["--runtime-config=api/all=true"]).runtimeConfig).toBe("api/all=true");
    expect(() => parseUpOptions(["--runtime-config", "api/all=false"])).toThrow(
      new Error("--runtime-config: invalid key with only api/all=false"),
    );
  });
});
