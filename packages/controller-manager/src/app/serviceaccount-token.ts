/**
 * startServiceAccountTokenController (cmd/kube-controller-manager/app/controllermanager.go): the
 * tokens controller with kube-controller-manager's own credentials ("tokens-controller"), off
 * without `--service-account-private-key-file`; a key or `--root-ca-file` that does not read is an
 * error that stops the process.
 */
import type { KubeConfig } from "@kubernetes/client-node";
import { privateKeyFromFile } from "@servicenet/client/util/keyutil";
import type { Logger } from "@servicenet/component-base/logs";
import { JWTTokenGenerator, legacyIssuer } from "@servicenet/component-base/serviceaccount";
import { TokensController } from "../serviceaccount/tokens-controller.ts";
import { tokensClient } from "../serviceaccount/tokens-client.ts";
import { rootCABundle } from "./certificates.ts";
import type { InformerSet } from "./informers.ts";
import type { Observability } from "./observability.ts";

/** What the start reads of the controller-manager's options. */
export interface ServiceAccountTokenOptions {
  serviceAccountKeyFile?: string;
  rootCAFile?: string;
}

/** The controller, or undefined when it is disabled; throws upstream's start errors. */
export function startServiceAccountTokenController(
  o: ServiceAccountTokenOptions,
  kc: KubeConfig,
  use: <K extends keyof InformerSet>(k: K) => InformerSet[K],
  obs: Pick<Observability, "queue">,
  log: Logger,
): TokensController | undefined {
  if ((o.serviceAccountKeyFile ?? "") === "") {
    log.info("Controller is disabled because there is no private key", { controller: "serviceaccount-token-controller" });
    return undefined;
  }
  let token: JWTTokenGenerator;
  try {
    token = new JWTTokenGenerator(legacyIssuer, privateKeyFromFile(o.serviceAccountKeyFile ?? ""));
  } catch (err) {
    throw new Error(`error reading key for service account token controller: ${(err as Error).message}`, { cause: err });
  }
  return new TokensController({
    serviceAccounts: use("serviceAccounts"),
    secrets: use("secrets"),
    client: tokensClient(kc),
    token,
    rootCA: rootCABundle(o.rootCAFile ?? "", kc),
    serviceAccountQueue: obs.queue("serviceaccount_tokens_service"),
    secretQueue: obs.queue("serviceaccount_tokens_secret"),
    logger: log,
  });
}
