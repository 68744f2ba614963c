import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { test } from "node:test";

import { hex, sha256, utf8 } from "../src/sha256.js";
import { approvalDigest, ApprovalRequest } from "../src/step.js";

const sha = (text: string) => hex(sha256(utf8(text)));

test("the standard vectors", () => {
  assert.equal(sha(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(sha("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(
    sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
  assert.equal(
    sha("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
    "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
  );
  assert.equal(sha("a".repeat(1_000_000)), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
});

test("agrees with node:crypto on every length around the block edges", () => {
  for (let length = 0; length <= 300; length++) {
    const data = randomBytes(length);
    const expected = createHash("sha256").update(data).digest("hex");
    assert.equal(hex(sha256(new Uint8Array(data))), expected, `length ${length}`);
  }
});

test("UTF-8 is Rust's: multi-byte characters, pairs, and U+FFFD for a lone surrogate", () => {
  for (const text of ["é", "€", "😀", "a😀b€é", "\u{10FFFF}", "\u007f\u0080\u07ff\u0800\uffff"]) {
    assert.deepEqual(Buffer.from(utf8(text)), Buffer.from(text, "utf8"), text);
  }
  assert.deepEqual([...utf8("\ud800")], [0xef, 0xbf, 0xbd]);
  assert.deepEqual([...utf8("a\udc00b")], [0x61, 0xef, 0xbf, 0xbd, 0x62]);
});

test("the approval digest is the one the host and the Rust SDK compute", () => {
  // host/src/model.rs and guest-sdk/src/step.rs check the same vector.
  assert.equal(
    approvalDigest("Approve 'scale_out' on payments-api?", '{"replicas":3}'),
    "1a25d7c5b9f90529fd572f728f15bd0bf01c1a3997dfe3b9532368a3b5c1a160",
  );
  const request = new ApprovalRequest("a1", "Approve 'scale_out' on payments-api?", { replicas: 3 }, 1);
  assert.equal(request.digest(), "1a25d7c5b9f90529fd572f728f15bd0bf01c1a3997dfe3b9532368a3b5c1a160");
  // The length prefix keeps the boundary between question and details.
  assert.notEqual(approvalDigest("ab", "c"), approvalDigest("a", "bc"));
});

test("the digest counts the question's bytes, not its UTF-16 units", () => {
  const question = "Déployer « scale_out » ? 😀";
  const details = '{"k":"v"}';
  const q = Buffer.from(question, "utf8");
  const length = Buffer.alloc(8);
  length.writeBigUInt64BE(BigInt(q.length));
  const expected = createHash("sha256").update(length).update(q).update(details).digest("hex");
  assert.equal(approvalDigest(question, details), expected);
});
