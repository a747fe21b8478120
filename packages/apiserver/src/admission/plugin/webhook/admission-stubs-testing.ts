/**
 * The stub objects of upstream's admission matrix (admission_test.go getStubObj): test/integration/
 * etcd/data.go's Stub for each served resource, keyed `<groupVersion>/<resource>`, and the test's
 * stubDataOverrides for the reviews, which are not stored.
 */

/** admission_test.go testNamespace. */
export const testNamespace = "webhook-integration";

/** An entry of a discovery APIResourceList, with the group version it was listed under. */
export interface APIResource {
  name: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  group?: string;
  version?: string;
  groupVersion: string;
}

const image = "registry.k8s.io/e2e-test-images/busybox:1.36.1-1";

const stubs: Record<string, string> = {
  "v1/configmaps": `{"data": {"foo": "bar"}, "metadata": {"name": "cm1"}}`,
  "v1/services": `{"metadata": {"name": "service1"}, "spec": {"type": "LoadBalancer", "ports": [{"port": 10000, "targetPort": 11000}], "selector": {"test": "data"}}}`,
  "v1/pods": `{"metadata": {"name": "pod1"}, "spec": {"containers": [{"image": "${image}", "name": "container7", "resources": {"limits": {"cpu": "1M"}, "requests": {"cpu": "1M"}}}]}}`,
  "v1/endpoints": `{"metadata": {"name": "ep1name"}, "subsets": [{"addresses": [{"hostname": "bar-001", "ip": "192.168.3.1"}], "ports": [{"port": 8000}]}]}`,
  "v1/namespaces": `{"metadata": {"name": "namespace1"}, "spec": {"finalizers": ["kubernetes"]}}`,
  "v1/nodes": `{"metadata": {"name": "node1"}, "spec": {"unschedulable": true}}`,
  "v1/events": `{"involvedObject": {"namespace": "${testNamespace}"}, "message": "some data here", "metadata": {"name": "event1"}}`,
  "v1/serviceaccounts": `{"metadata": {"name": "sa1name"}, "secrets": [{"name": "secret00"}]}`,
  "v1/secrets": `{"data": {"key": "ZGF0YSBmaWxl"}, "metadata": {"name": "secret1"}}`,
  "apps/v1/deployments": `{"metadata": {"name": "deployment4"}, "spec": {"selector": {"matchLabels": {"f": "z"}}, "template": {"metadata": {"labels": {"f": "z"}}, "spec": {"containers": [{"image": "${image}", "name": "container6"}]}}}}`,
  "apps/v1/replicasets": `{"metadata": {"name": "rs3"}, "spec": {"selector": {"matchLabels": {"g": "h"}}, "template": {"metadata": {"labels": {"g": "h"}}, "spec": {"containers": [{"image": "${image}", "name": "container4"}]}}}}`,
  "batch/v1/jobs": `{"metadata": {"name": "job1"}, "spec": {"manualSelector": true, "selector": {"matchLabels": {"controller-uid": "uid1"}}, "template": {"metadata": {"labels": {"controller-uid": "uid1"}}, "spec": {"containers": [{"image": "${image}", "name": "container1"}], "dnsPolicy": "ClusterFirst", "restartPolicy": "Never"}}}}`,
  "batch/v1/cronjobs": `{"metadata": {"name": "cjv1"}, "spec": {"jobTemplate": {"spec": {"template": {"metadata": {"labels": {"controller-uid": "uid0"}}, "spec": {"containers": [{"image": "${image}", "name": "container0"}], "dnsPolicy": "ClusterFirst", "restartPolicy": "Never"}}}}, "schedule": "* * * * *"}}`,
  "apps/v1/daemonsets": `{"metadata": {"name": "ds6"}, "spec": {"selector": {"matchLabels": {"u": "t"}}, "template": {"metadata": {"labels": {"u": "t"}}, "spec": {"containers": [{"image": "${image}", "name": "container5"}]}}}}`,
  "apps/v1/statefulsets": `{"metadata": {"name": "ss3"}, "spec": {"selector": {"matchLabels": {"a": "b"}}, "template": {"metadata": {"labels": {"a": "b"}}}}}`,
  "apps/v1/controllerrevisions": `{"metadata":{"name":"crs3"},"data":{"name":"abc","namespace":"default","creationTimestamp":null,"Spec":{"Replicas":0,"Selector":{"matchLabels":{"foo":"bar"}},"Template":{"creationTimestamp":null,"labels":{"foo":"bar"},"Spec":{"Volumes":null,"InitContainers":null,"Containers":null,"RestartPolicy":"Always","TerminationGracePeriodSeconds":null,"ActiveDeadlineSeconds":null,"DNSPolicy":"ClusterFirst","NodeSelector":null,"ServiceAccountName":"","AutomountServiceAccountToken":null,"NodeName":"","SecurityContext":null,"ImagePullSecrets":null,"Hostname":"","Subdomain":"","Affinity":null,"SchedulerName":"","Tolerations":null,"HostAliases":null}},"VolumeClaimTemplates":null,"ServiceName":""},"Status":{"ObservedGeneration":null,"Replicas":0}},"revision":0}`,
  "networking.k8s.io/v1/ipaddresses": `{"metadata": {"name": "192.168.2.3"}, "spec": {"parentRef": {"resource": "services","name": "test", "namespace": "ns"}}}`,
  "networking.k8s.io/v1/servicecidrs": `{"metadata": {"name": "range-b2"}, "spec": {"cidrs": ["192.168.0.0/16","fd00:1::/120"]}}`,
  // Served with --runtime-config=api/all=true (TestPolicyAdmission): data.go's v1beta1 stubs, and its v1alpha1 ones of release-1.32.
  "networking.k8s.io/v1beta1/ipaddresses": `{"metadata": {"name": "192.168.1.3"}, "spec": {"parentRef": {"resource": "services","name": "test", "namespace": "ns"}}}`,
  "networking.k8s.io/v1beta1/servicecidrs": `{"metadata": {"name": "range-b1"}, "spec": {"cidrs": ["192.168.0.0/16","fd00:1::/120"]}}`,
  "networking.k8s.io/v1alpha1/ipaddresses": `{"metadata": {"name": "192.168.1.2"}, "spec": {"parentRef": {"resource": "services","name": "test", "namespace": "ns"}}}`,
  "networking.k8s.io/v1alpha1/servicecidrs": `{"metadata": {"name": "range1"}, "spec": {"cidrs": ["192.168.0.0/16","fd00:1::/120"]}}`,
  "networking.k8s.io/v1/networkpolicies": `{"metadata": {"name": "np2"}, "spec": {"podSelector": {"matchLabels": {"e": "f"}}}}`,
  "networking.k8s.io/v1/ingresses": `{"metadata": {"name": "ingress3"}, "spec": {"defaultBackend": {"service":{"name":"service", "port":{"number": 5000}}}}}`,
  "networking.k8s.io/v1/ingressclasses": `{"metadata": {"name": "ingressclass3"}, "spec": {"controller": "example.com/controller"}}`,
  "flowcontrol.apiserver.k8s.io/v1/flowschemas": `{"metadata": {"name": "fs-3"}, "spec": {"priorityLevelConfiguration": {"name": "name1"}}}`,
  "flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations": `{"metadata": {"name": "conf5"}, "spec": {"type": "Limited", "limited": {"nominalConcurrencyShares":3, "limitResponse": {"type": "Reject"}}}}`,
  "rbac.authorization.k8s.io/v1/roles": `{"metadata": {"name": "role3"}, "rules": [{"apiGroups": ["v1"], "resources": ["events"], "verbs": ["watch"]}]}`,
  "rbac.authorization.k8s.io/v1/clusterroles": `{"metadata": {"name": "crole3"}, "rules": [{"nonResourceURLs": ["/version"], "verbs": ["get"]}]}`,
  "rbac.authorization.k8s.io/v1/rolebindings": `{"metadata": {"name": "roleb3"}, "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "somecr"}, "subjects": [{"apiVersion": "rbac.authorization.k8s.io/v1alpha1", "kind": "Group", "name": "system:authenticated"}]}`,
  "rbac.authorization.k8s.io/v1/clusterrolebindings": `{"metadata": {"name": "croleb3"}, "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "somecr"}, "subjects": [{"apiVersion": "rbac.authorization.k8s.io/v1alpha1", "kind": "Group", "name": "system:authenticated"}]}`,
  "admissionregistration.k8s.io/v1/validatingwebhookconfigurations": `{"metadata":{"name":"hook2"},"webhooks":[{"name":"externaladmissionhook.k8s.io","clientConfig":{"service":{"namespace":"ns","name":"n"},"caBundle":null},"rules":[{"operations":["CREATE"],"apiGroups":["group"],"apiVersions":["version"],"resources":["resource"]}],"failurePolicy":"Ignore","sideEffects":"None","admissionReviewVersions":["v1beta1"]}]}`,
  "admissionregistration.k8s.io/v1/mutatingwebhookconfigurations": `{"metadata":{"name":"hook2"},"webhooks":[{"name":"externaladmissionhook.k8s.io","clientConfig":{"service":{"namespace":"ns","name":"n"},"caBundle":null},"rules":[{"operations":["CREATE"],"apiGroups":["group"],"apiVersions":["version"],"resources":["resource"]}],"failurePolicy":"Ignore","sideEffects":"None","admissionReviewVersions":["v1beta1"]}]}`,
  "admissionregistration.k8s.io/v1/validatingadmissionpolicies": `{"metadata":{"name":"vap1"},"spec":{"paramKind":{"apiVersion":"test.example.com/v1","kind":"Example"},"matchConstraints":{"resourceRules": [{"resourceNames": ["fakeName"], "apiGroups":["apps"],"apiVersions":["v1"],"operations":["CREATE", "UPDATE"], "resources":["deployments"]}]},"validations":[{"expression":"object.spec.replicas <= params.maxReplicas","message":"Too many replicas"}]}}`,
  "admissionregistration.k8s.io/v1/validatingadmissionpolicybindings": `{"metadata":{"name":"pb1"},"spec":{"policyName":"replicalimit-policy.example.com","paramRef":{"name":"replica-limit-test.example.com","parameterNotFoundAction":"Deny"},"validationActions":["Deny"]}}`,
  "apiextensions.k8s.io/v1/customresourcedefinitions": `{"metadata": {"name": "openshiftwebconsoleconfigs.webconsole2.operator.openshift.io"},"spec": {"scope": "Cluster","group": "webconsole2.operator.openshift.io","versions": [{"name":"v1alpha1","storage":true,"served":true,"schema":{"openAPIV3Schema":{"type":"object"}}}],"names": {"kind": "OpenShiftWebConsoleConfig","plural": "openshiftwebconsoleconfigs","singular": "openshiftwebconsoleconfig"}}}`,
  "scheduling.k8s.io/v1/priorityclasses": `{"metadata":{"name":"pc3"},"value":1000}`,
  "policy/v1/poddisruptionbudgets": `{"metadata": {"name": "pdbv1"}, "spec": {"selector": {"matchLabels": {"anokkey": "anokvalue"}}}}`,
  "coordination.k8s.io/v1/leases": `{"metadata": {"name": "leasev1"}, "spec": {"holderIdentity": "holder", "leaseDurationSeconds": 5}}`,
  "discovery.k8s.io/v1/endpointslices": `{"metadata": {"name": "slicev1"}, "addressType": "IPv4", "protocol": "TCP", "ports": [], "endpoints": []}`,
  // admission_test.go stubDataOverrides: the reviews.
  "authentication.k8s.io/v1/tokenreviews": `{"metadata": {"name": "tokenreview"}, "spec": {"token": "token", "audience": ["audience1","audience2"]}}`,
  "authentication.k8s.io/v1/selfsubjectreviews": `{"metadata": {"name": "SelfSubjectReview"},"status":{"userInfo":{}}}`,
  "authentication.k8s.io/v1beta1/selfsubjectreviews": `{"metadata": {"name": "SelfSubjectReview"},"status":{"userInfo":{}}}`,
  "authentication.k8s.io/v1alpha1/selfsubjectreviews": `{"metadata": {"name": "SelfSubjectReview"},"status":{"userInfo":{}}}`,
  "authorization.k8s.io/v1/localsubjectaccessreviews": `{"metadata": {"name": "", "namespace":"${testNamespace}"}, "spec": {"uid": "token", "user": "user1","groups": ["group1","group2"],"resourceAttributes": {"name":"name1","namespace":"${testNamespace}"}}}`,
  "authorization.k8s.io/v1/subjectaccessreviews": `{"metadata": {"name": "", "namespace":""}, "spec": {"user":"user1","resourceAttributes": {"name":"name1", "namespace":"${testNamespace}"}}}`,
  "authorization.k8s.io/v1/selfsubjectaccessreviews": `{"metadata": {"name": "", "namespace":""}, "spec": {"resourceAttributes": {"name":"name1", "namespace":""}}}`,
  "authorization.k8s.io/v1/selfsubjectrulesreviews": `{"metadata": {"name": "", "namespace":"${testNamespace}"}, "spec": {"namespace":"${testNamespace}"}}`,
};

/** getStubObj: the stub of `key` (`<groupVersion>/<resource>`); throws for a resource without one. */
export function stubFor(key: string): { metadata: { name: string; namespace?: string } } & Record<string, unknown> {
  const stub = stubs[key];
  if (stub === undefined) throw new Error(`no stub data for ${key}`);
  return JSON.parse(stub) as { metadata: { name: string } };
}
