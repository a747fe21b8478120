/**
 * The configuration objects every apiserver starts with
 * (staging/src/k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap/default.go): the mandatory `exempt`
 * and `catch-all` priority levels and FlowSchemas, and the suggested ones.
 */
import {
  APIGroupAll,
  NameAll,
  NamespaceEvery,
  NonResourceAll,
  ResourceAll,
  VerbAll,
  type FlowSchema,
  type NonResourcePolicyRule,
  type PolicyRulesWithSubjects,
  type PriorityLevelConfiguration,
  type PriorityLevelConfigurationSpec,
  type ResourcePolicyRule,
  type Subject,
} from "./types.ts";
import { setDefaultsFlowSchema, setDefaultsPriorityLevelConfiguration } from "./defaults.ts";

const allAuthenticated = "system:authenticated";
const allUnauthenticated = "system:unauthenticated";
const kubeControllerManager = "system:kube-controller-manager";
const kubeScheduler = "system:kube-scheduler";

function pl(name: string, spec: PriorityLevelConfigurationSpec): PriorityLevelConfiguration {
  return { metadata: { name }, spec };
}

function queued(
  shares: number,
  lendablePercent: number,
  queues: number,
  handSize: number,
  queueLengthLimit: number,
): PriorityLevelConfigurationSpec {
  return {
    type: "Limited",
    limited: {
      nominalConcurrencyShares: shares,
      limitResponse: { type: "Queue", queuing: { queues, handSize, queueLengthLimit } },
      lendablePercent,
    },
  };
}

const groups = (...names: string[]): Subject[] => names.map((name) => ({ kind: "Group", group: { name } }));
const users = (...names: string[]): Subject[] => names.map((name) => ({ kind: "User", user: { name } }));
const kubeSystemServiceAccounts = (...names: string[]): Subject[] =>
  names.map((name) => ({ kind: "ServiceAccount", serviceAccount: { namespace: "kube-system", name } }));

function resourceRule(
  verbs: string[],
  apiGroups: string[],
  resources: string[],
  namespaces: string[],
  clusterScope: boolean,
): ResourcePolicyRule {
  return { verbs, apiGroups, resources, ...(clusterScope ? { clusterScope } : {}), namespaces };
}

const ruleResourceAll = (): ResourcePolicyRule[] => [resourceRule([VerbAll], [APIGroupAll], [ResourceAll], [NamespaceEvery], true)];
const ruleNonResourceAll = (): NonResourcePolicyRule[] => [{ verbs: [VerbAll], nonResourceURLs: [NonResourceAll] }];

function fs(
  name: string,
  plName: string,
  matchingPrecedence: number,
  distinguisher: string,
  ...rules: PolicyRulesWithSubjects[]
): FlowSchema {
  return {
    metadata: { name },
    spec: {
      priorityLevelConfiguration: { name: plName },
      matchingPrecedence,
      ...(distinguisher !== "" ? { distinguisherMethod: { type: distinguisher } } : {}),
      rules,
    },
  };
}

/** NewFSAll: the subjects, whatever the verb and target. */
function fsAll(name: string, plName: string, matchingPrecedence: number, distinguisher: string, subjects: Subject[]): FlowSchema {
  return fs(name, plName, matchingPrecedence, distinguisher, {
    subjects,
    resourceRules: ruleResourceAll(),
    nonResourceRules: ruleNonResourceAll(),
  });
}

const leaseRule = (): ResourcePolicyRule =>
  resourceRule(["get", "create", "update"], ["coordination.k8s.io"], ["leases"], [NamespaceEvery], false);

/** MandatoryPriorityLevelConfigurations. */
export function mandatoryPriorityLevelConfigurations(): PriorityLevelConfiguration[] {
  return [
    pl("exempt", { type: "Exempt", exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } }),
    pl("catch-all", { type: "Limited", limited: { nominalConcurrencyShares: 5, limitResponse: { type: "Reject" }, lendablePercent: 0 } }),
  ];
}

/** MandatoryFlowSchemas. */
export function mandatoryFlowSchemas(): FlowSchema[] {
  return [
    fsAll("exempt", "exempt", 1, "", groups("system:masters")),
    fsAll("catch-all", "catch-all", 10000, "ByUser", groups(allUnauthenticated, allAuthenticated)),
  ];
}

/** SuggestedPriorityLevelConfigurations. */
export function suggestedPriorityLevelConfigurations(): PriorityLevelConfiguration[] {
  return [
    pl("system", queued(30, 33, 64, 6, 50)),
    pl("node-high", queued(40, 25, 64, 6, 50)),
    pl("leader-election", queued(10, 0, 16, 4, 50)),
    pl("workload-high", queued(40, 50, 128, 6, 50)),
    pl("workload-low", queued(100, 90, 128, 6, 50)),
    pl("global-default", queued(20, 50, 128, 6, 50)),
  ];
}

/** SuggestedFlowSchemas. */
export function suggestedFlowSchemas(): FlowSchema[] {
  return [
    fsAll("system-nodes", "system", 500, "ByUser", groups("system:nodes")),
    fs("system-node-high", "node-high", 400, "ByUser", {
      subjects: groups("system:nodes"),
      resourceRules: [
        resourceRule([VerbAll], [""], ["nodes", "nodes/status"], [NamespaceEvery], true),
        resourceRule([VerbAll], ["coordination.k8s.io"], ["leases"], [NamespaceEvery], false),
      ],
    }),
    fs("system-leader-election", "leader-election", 100, "ByUser", {
      subjects: [...users(kubeControllerManager, kubeScheduler), ...kubeSystemServiceAccounts(NameAll)],
      resourceRules: [leaseRule()],
    }),
    fs("endpoint-controller", "workload-high", 150, "ByUser", {
      subjects: [...users(kubeControllerManager), ...kubeSystemServiceAccounts("endpoint-controller", "endpointslicemirroring-controller")],
      resourceRules: [resourceRule(["get", "create", "update"], [""], ["endpoints"], [NamespaceEvery], false)],
    }),
    fs("workload-leader-election", "leader-election", 200, "ByUser", {
      subjects: kubeSystemServiceAccounts(NameAll),
      resourceRules: [leaseRule()],
    }),
    fsAll("kube-controller-manager", "workload-high", 800, "ByNamespace", users(kubeControllerManager)),
    fsAll("kube-scheduler", "workload-high", 800, "ByNamespace", users(kubeScheduler)),
    fsAll("kube-system-service-accounts", "workload-high", 900, "ByNamespace", kubeSystemServiceAccounts(NameAll)),
    fsAll("service-accounts", "workload-low", 9000, "ByUser", groups("system:serviceaccounts")),
    fsAll("global-default", "global-default", 9900, "ByUser", groups(allUnauthenticated, allAuthenticated)),
    fs("probes", "exempt", 2, "", {
      subjects: groups(allUnauthenticated, allAuthenticated),
      nonResourceRules: [{ verbs: ["get"], nonResourceURLs: ["/healthz", "/readyz", "/livez"] }],
    }),
  ];
}

/**
 * The mandatory and suggested objects with their defaults set: the configuration an apiserver's
 * dispatcher starts from before the config controller has read the stored objects (upstream's
 * `bootstrap` lists as `BuildPriorityAndFairness` feeds them).
 */
export function defaultedBootstrapConfiguration(): { flowSchemas: FlowSchema[]; priorityLevels: PriorityLevelConfiguration[] } {
  const flowSchemas = [...mandatoryFlowSchemas(), ...suggestedFlowSchemas()];
  const priorityLevels = [...mandatoryPriorityLevelConfigurations(), ...suggestedPriorityLevelConfigurations()];
  flowSchemas.forEach(setDefaultsFlowSchema);
  priorityLevels.forEach(setDefaultsPriorityLevelConfiguration);
  return { flowSchemas, priorityLevels };
}
