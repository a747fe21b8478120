/**
 * Type-checking a policy's expressions against the schemas of the kinds it matches
 * (k8s.io/apiserver/pkg/admission/plugin/policy/validating/typechecking.go TypeChecker): for each
 * kind, `object` and `oldObject` are declared as that kind's schema types and `params` as the param
 * kind's, the variables are composed in order, and each validation's expression and
 * messageExpression is checked. What the checker finds becomes the policy's
 * `status.typeChecking.expressionWarnings`; it never changes how the policy runs.
 */
import type { ExpressionWarning, ValidatingAdmissionPolicy } from "@servicenet/api/admissionregistration/v1";
import { authorizerType, CELEnvironment, trustedTypeError, type CELError } from "../../../../apiserver/cel/index.ts";
import type { GroupVersionKind, SchemaResolver } from "../../../../apiserver/cel/openapi/resolver/resolver.ts";
import { schemaDeclType, type ObjectTypes } from "../../../../apiextensions/apiserver/schema/cel/model/schemas.ts";
import { newAdmissionEnvironment } from "../../cel/compile.ts";
import { typesToCheck, type KindsFor } from "./types-to-check.ts";

// The environment the policy runs in: an expression that does not compile here is an issue whatever the types.
const untyped = newAdmissionEnvironment({ hasParams: true, hasComposition: true, hasAuthorizer: true });

/** GroupVersionKind.String(): `apps/v1, Kind=Deployment`, `/v1, Kind=Pod`. */
const gvkString = (g: GroupVersionKind): string => `${g.group}/${g.version}, Kind=${g.kind}`;

/** The declarations of one kind: `object`'s and `params`' types and the object types they use. */
interface TypeOverwrite {
  types: ObjectTypes;
  object: string;
  params?: string;
}

/** The checker's issue with `expression` in `env`, in cel-go's words, or undefined. */
function issueOf(env: CELEnvironment, expression: string): string | undefined {
  const r = env.check(expression);
  if (r.error === undefined) return undefined;
  if (!trustedTypeError(r.error) && untyped.compile(expression).error === undefined) return undefined;
  return issues(r.error);
}

// The compile error's detail carries upstream's "compilation failed: " prefix; issues.String() does not.
const issues = (e: CELError): string => e.detail.replace(/^compilation failed: /, "");

/** An environment with `declared` and the variables composed so far typed as an object (plugin/cel/composition.go). */
function environment(declared: TypeOverwrite, variables: Record<string, string>): CELEnvironment {
  // Field types name nested object types: those are declared first (as model/schemas.go builds them).
  const objectTypes = { ...Object.fromEntries(Object.entries(declared.types).reverse()), Variables: variables };
  return new CELEnvironment({
    objectTypes,
    variables: {
      object: declared.object,
      oldObject: declared.object,
      request: "dyn",
      namespaceObject: "dyn",
      params: declared.params ?? "dyn",
      variables: "Variables",
      authorizer: authorizerType,
    },
  });
}

/** The TypeChecker over a schema resolver and a RESTMapper's KindsFor. */
export class TypeChecker {
  readonly #schemas: SchemaResolver;
  readonly #kindsFor: KindsFor;

  constructor(schemas: SchemaResolver, kindsFor: KindsFor) {
    this.#schemas = schemas;
    this.#kindsFor = kindsFor;
  }

  /** Check: the warnings of every validation's expression and messageExpression, in order. */
  check(policy: ValidatingAdmissionPolicy): ExpressionWarning[] {
    const envs = this.#environments(policy);
    const warnings: ExpressionWarning[] = [];
    const add = (fieldRef: string, expression: string) => {
      const found = envs.flatMap(({ gvk, env }) => {
        const issue = issueOf(env, expression);
        return issue === undefined ? [] : [`${gvkString(gvk)}: ${issue}\n`];
      });
      if (found.length > 0) warnings.push({ fieldRef, warning: found.join("\n") });
    };
    (policy.spec.validations ?? []).forEach((v, i) => {
      add(`spec.validations[${i}].expression`, v.expression);
      if ((v.messageExpression ?? "") !== "") add(`spec.validations[${i}].messageExpression`, v.messageExpression!);
    });
    return warnings;
  }

  /** CreateContext and CompileAndStoreVariables: one environment per kind whose schema is known. */
  #environments(policy: ValidatingAdmissionPolicy): { gvk: GroupVersionKind; env: CELEnvironment }[] {
    const out: { gvk: GroupVersionKind; env: CELEnvironment }[] = [];
    for (const gvk of typesToCheck(policy, this.#kindsFor)) {
      const schema = this.#schemas.resolveSchema(gvk);
      if (schema === undefined) continue;
      const declared: TypeOverwrite = { types: {}, object: "" };
      declared.object = schemaDeclType(schema, declared.types, "Object");
      const params = this.#paramsSchema(policy);
      if (params !== undefined) declared.params = schemaDeclType(params, declared.types, "Params");
      out.push({ gvk, env: composed(declared, policy) });
    }
    return out;
  }

  #paramsSchema(policy: ValidatingAdmissionPolicy) {
    const kind = policy.spec.paramKind;
    if (kind?.apiVersion === undefined || kind.kind === undefined) return undefined;
    const slash = kind.apiVersion.indexOf("/");
    const [group, version] = slash === -1 ? ["", kind.apiVersion] : [kind.apiVersion.slice(0, slash), kind.apiVersion.slice(slash + 1)];
    return this.#schemas.resolveSchema({ group, version, kind: kind.kind });
  }
}

/** The environment with the policy's variables declared, each typed as its expression checks (dyn when it does not). */
function composed(declared: TypeOverwrite, policy: ValidatingAdmissionPolicy): CELEnvironment {
  const variables: Record<string, string> = {};
  for (const v of policy.spec.variables ?? []) {
    const r = environment(declared, variables).check(v.expression);
    variables[v.name] = r.type ?? "dyn";
  }
  return environment(declared, variables);
}
