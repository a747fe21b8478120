/** admission_test.go TestEnabledPluginNames and TestValidate (k8s.io/apiserver/pkg/server/options), over kube-apiserver 1.33's plugins. */
import { describe, expect, it } from "vitest";
import { parseUpOptions } from "../../controlplane/options.ts";
import { enabledAdmissionPlugins, validateAdmissionPluginFlags } from "./plugins.ts";

describe("TestEnabledPluginNames", () => {
  it("enables kube-apiserver's defaults in their order, webhooks and policies last", () => {
    const names = enabledAdmissionPlugins();
    expect(names[0]).toBe("NamespaceLifecycle");
    expect(names.slice(-5)).toEqual([
      "MutatingAdmissionPolicy",
      "MutatingAdmissionWebhook",
      "ValidatingAdmissionPolicy",
      "ValidatingAdmissionWebhook",
      "ResourceQuota",
    ]);
    expect(names).not.toContain("AlwaysDeny");
    expect(names).not.toContain("NodeRestriction");
  });

  it("adds the enabled ones in the recommended order and drops the disabled ones", () => {
    const names = enabledAdmissionPlugins({ enable: ["NodeRestriction"], disable: ["ValidatingAdmissionPolicy", "NamespaceLifecycle"] });
    expect(names).toContain("NodeRestriction");
    expect(names.indexOf("NodeRestriction")).toBeLessThan(names.indexOf("MutatingAdmissionWebhook"));
    expect(names).not.toContain("ValidatingAdmissionPolicy");
    expect(names).not.toContain("NamespaceLifecycle");
  });
});

describe("TestValidate", () => {
  it.each([
    [{ enable: ["Foo"] }, ['enable-admission-plugins plugin "Foo" is unknown']],
    [{ disable: ["Bar"] }, ['disable-admission-plugins plugin "Bar" is unknown']],
    [
      { enable: ["ValidatingAdmissionPolicy", "NodeRestriction"], disable: ["NodeRestriction", "ValidatingAdmissionPolicy"] },
      ["[NodeRestriction ValidatingAdmissionPolicy] in enable-admission-plugins and disable-admission-plugins overlapped"],
    ],
    [{ enable: ["NodeRestriction"], disable: ["ValidatingAdmissionPolicy"] }, []],
  ])("%j", (flags, want) => {
    expect(validateAdmissionPluginFlags(flags)).toEqual(want);
  });

  it("servicenet up refuses an unknown plugin name", () => {
    expect(() => parseUpOptions(["--enable-admission-plugins", "Nope"])).toThrow('enable-admission-plugins plugin "Nope" is unknown');
    expect(parseUpOptions(["--disable-admission-plugins", "ValidatingAdmissionPolicy"]).admissionPlugins).not.toContain(
      "ValidatingAdmissionPolicy",
    );
  });
});
