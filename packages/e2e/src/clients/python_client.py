"""Drives servicenet with the official Python client (Debian's python3-kubernetes).

Usage: python_client.py <scenario> <kubeconfig> <namespace>. Prints one JSON document with what
the scenario observed; the e2e test (python-client.e2e.test.ts) judges it. Exits 2 when the
kubernetes module is missing, so the test can skip visibly.
"""

import json
import sys
import threading

try:
    from kubernetes import client, config, dynamic, watch
    from kubernetes.client.rest import ApiException
except ImportError:
    print(json.dumps({"missing": "kubernetes"}))
    sys.exit(2)


def service(name, port=80, labels=None):
    return client.V1Service(
        metadata=client.V1ObjectMeta(name=name, labels=labels),
        spec=client.V1ServiceSpec(ports=[client.V1ServicePort(port=port)]),
    )


def crud(api_client, ns):
    """CoreV1: create, read, list by label, patch, replace, delete a Service."""
    core = client.CoreV1Api(api_client)
    out = {}
    created = core.create_namespaced_service(ns, service("py-crud", labels={"app": "py"}))
    out["created"] = {"name": created.metadata.name, "clusterIP": created.spec.cluster_ip, "families": created.spec.ip_families}
    read = core.read_namespaced_service("py-crud", ns)
    out["read_uid_matches"] = read.metadata.uid == created.metadata.uid
    listed = core.list_namespaced_service(ns, label_selector="app=py")
    out["listed"] = [s.metadata.name for s in listed.items]
    patched = core.patch_namespaced_service("py-crud", ns, {"metadata": {"labels": {"tier": "web"}}})
    out["patched_labels"] = patched.metadata.labels
    patched.spec.ports[0].port = 8080
    replaced = core.replace_namespaced_service("py-crud", ns, patched)
    out["replaced_port"] = replaced.spec.ports[0].port
    out["kept_clusterIP"] = replaced.spec.cluster_ip == created.spec.cluster_ip
    deleted = core.delete_namespaced_service("py-crud", ns)
    out["deleted_kind"] = deleted.kind
    try:
        core.read_namespaced_service("py-crud", ns)
        out["after_delete"] = 200
    except ApiException as e:
        out["after_delete"] = e.status
    return out


def watch_events(api_client, ns):
    """A watch from a list's resource_version (the client sends watch=True) sees the changes after it."""
    core = client.CoreV1Api(api_client)
    rv = core.list_namespaced_service(ns).metadata.resource_version
    events = []
    ready = threading.Event()

    def run():
        w = watch.Watch()
        ready.set()
        for ev in w.stream(core.list_namespaced_service, ns, resource_version=rv, timeout_seconds=60):
            events.append([ev["type"], ev["object"].metadata.name])
            if ev["type"] == "DELETED":
                w.stop()

    t = threading.Thread(target=run)
    t.start()
    ready.wait()
    core.create_namespaced_service(ns, service("py-watch"))
    core.patch_namespaced_service("py-watch", ns, {"metadata": {"labels": {"seen": "yes"}}})
    core.delete_namespaced_service("py-watch", ns)
    t.join(90)
    return {"events": events, "finished": not t.is_alive()}


def apply(api_client, ns):
    """Server-side apply: a second manager conflicts on a field, then takes it with force=True."""
    dyn = dynamic.DynamicClient(api_client)
    svcs = dyn.resources.get(api_version="v1", kind="Service")

    def body(tier):
        # An apply patch goes out as text (the client refuses a dict for a non-JSON content type);
        # JSON is YAML.
        return json.dumps(
            {
                "apiVersion": "v1",
                "kind": "Service",
                "metadata": {"name": "py-apply", "labels": {"tier": tier}},
                "spec": {"ports": [{"port": 80}]},
            }
        )

    out = {}
    first = svcs.server_side_apply(body=body("a"), name="py-apply", namespace=ns, field_manager="py-first")
    out["first_labels"] = dict(first.metadata.labels)
    try:
        svcs.server_side_apply(body=body("b"), name="py-apply", namespace=ns, field_manager="py-second")
        out["conflict"] = 200
    except ApiException as e:
        out["conflict"] = e.status
        out["conflict_reason"] = json.loads(e.body)["reason"]
    forced = svcs.server_side_apply(body=body("b"), name="py-apply", namespace=ns, field_manager="py-second", force_conflicts=True)
    out["forced_labels"] = dict(forced.metadata.labels)
    out["managers"] = sorted(m.manager for m in forced.metadata.managedFields)
    svcs.delete(name="py-apply", namespace=ns)
    return out


def servicecidrs(api_client, _ns):
    """The dynamic client on networking.k8s.io/v1 ServiceCIDRs: discovery, create, get, list, delete."""
    dyn = dynamic.DynamicClient(api_client)
    cidrs = dyn.resources.get(api_version="networking.k8s.io/v1", kind="ServiceCIDR")
    out = {"namespaced": cidrs.namespaced, "name": cidrs.name}
    created = cidrs.create(
        body={"apiVersion": "networking.k8s.io/v1", "kind": "ServiceCIDR", "metadata": {"name": "py-cidr"}, "spec": {"cidrs": ["10.123.0.0/24"]}}
    )
    out["created_cidrs"] = list(created.spec.cidrs)
    out["got_name"] = cidrs.get(name="py-cidr").metadata.name
    out["listed"] = sorted(i.metadata.name for i in cidrs.get().items)
    cidrs.delete(name="py-cidr")
    return out


SCENARIOS = {"crud": crud, "watch": watch_events, "apply": apply, "servicecidrs": servicecidrs}


def main():
    scenario, kubeconfig, ns = sys.argv[1], sys.argv[2], sys.argv[3]
    api_client = config.new_client_from_config(config_file=kubeconfig)
    print(json.dumps(SCENARIOS[scenario](api_client, ns)))


if __name__ == "__main__":
    main()
