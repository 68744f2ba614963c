#!/usr/bin/env node
// Type-checks the agent and its tests, then runs the tests (every *.test.ts
// here) with Node's test runner against the SDK's fake host.
//
//   npm test             (npm install first)
//   node test.mjs app.test.ts
//
// Each test file is bundled with esbuild (TypeScript, the SDK included) into
// build/tests/, then `node --test` runs them. No network is used.

import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

function fail(message) {
  console.error(`test: ${message}`);
  process.exit(1);
}

const major = Number(process.versions.node.split(".")[0]);
if (major < 20) fail(`node ${process.version} is too old: this project needs Node.js 20 or later`);
let build;
try {
  ({ build } = await import("esbuild"));
} catch (e) {
  if (e?.code !== "ERR_MODULE_NOT_FOUND") throw e;
  fail(`the toolchain is not installed (${e.message.split("\n")[0]}): run 'npm install' here first`);
}
const tsc = join(here, "node_modules", ".bin", "tsc");
if (!existsSync(tsc)) fail(`${relative(here, tsc)} is missing: run 'npm install' here first`);

function run(command, args) {
  const result = spawnSync(command, args, { stdio: "inherit", cwd: here });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

const args = process.argv.slice(2);
const files =
  args.length > 0
    ? args.map((f) => resolve(f))
    : readdirSync(here)
        .filter((f) => f.endsWith(".test.ts"))
        .sort()
        .map((f) => join(here, f));
if (files.length === 0) fail(`no *.test.ts in ${here}`);

for (const project of ["tsconfig.json", "tsconfig.test.json"]) {
  if (run(tsc, ["-p", project]) !== 0) fail(`type check failed (${project})`);
}

const out = join(here, "build", "tests");
rmSync(out, { recursive: true, force: true });
const bundles = [];
for (const file of files) {
  const outfile = join(out, `${basename(file, ".ts")}.mjs`);
  await build({
    entryPoints: [file],
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    outfile,
    sourcemap: "inline",
    logLevel: "warning",
  });
  bundles.push(relative(here, outfile));
}
process.exit(run(process.execPath, ["--enable-source-maps", "--test", "--test-reporter=spec", ...bundles]));
