import { textLogger } from "@servicenet/component-base/logs";
import { describe, expect, it } from "vitest";
import { TokenFileAuthenticator, parseTokenFile } from "./tokenfile.ts";

// tokenfile_test.go
describe("tokenfile", () => {
  it("TestTokenFile", () => {
    const auth = new TokenFileAuthenticator(
      parseTokenFile(`token1,user1,uid1
token2,user2,uid2
token3,user3,uid3,"group1,group2"
token4,user4,uid4,"group2"
token5,user5,uid5,group5
token6,user6,uid6,group5,otherdata
token7,user7,uid7,"group1,group2",otherdata
`),
    );
    const cases: [string, { name: string; uid: string; groups: string[] } | undefined][] = [
      ["token1", { name: "user1", uid: "uid1", groups: [] }],
      ["token2", { name: "user2", uid: "uid2", groups: [] }],
      ["token3", { name: "user3", uid: "uid3", groups: ["group1", "group2"] }],
      ["token4", { name: "user4", uid: "uid4", groups: ["group2"] }],
      ["token5", { name: "user5", uid: "uid5", groups: ["group5"] }],
      ["token6", { name: "user6", uid: "uid6", groups: ["group5"] }],
      ["token7", { name: "user7", uid: "uid7", groups: ["group1", "group2"] }],
      ["token8", undefined],
    ];
    for (const [token, user] of cases) expect(auth.authenticateToken(token)?.user, token).toEqual(user);
  });

  it("TestBadTokenFile", () => {
    expect(() => parseTokenFile("token1,user1,uid1\ntoken2,user2,uid2\ntoken3,user3\ntoken4\n", "f")).toThrow(
      "token file 'f' must have at least 3 columns (token, user name, user uid), found 2",
    );
  });

  it("TestInsufficientColumnsTokenFile", () => {
    expect(() => parseTokenFile("token4\n", "f")).toThrow(
      "token file 'f' must have at least 3 columns (token, user name, user uid), found 1",
    );
  });

  it("TestEmptyTokenTokenFile", () => {
    const warnings: string[] = [];
    const tokens = parseTokenFile(
      ",user5,uid5\ntoken6,user6,uid6\n",
      "f",
      textLogger((w) => warnings.push(w)),
    );
    expect([...tokens.keys()]).toEqual(["token6"]);
    expect(warnings).toEqual([`"empty token has been found in token file 'f', record number '1'"`]);
  });

  it("reads quotes as encoding/csv does and refuses a bare quote", () => {
    expect(parseTokenFile('t,"a ""b""",u,"x,y"\r\n\r\n').get("t")).toEqual({ name: 'a "b"', uid: "u", groups: ["x", "y"] });
    expect(() => parseTokenFile('t,a"b,u\n')).toThrow('bare " in non-quoted-field');
  });
});
