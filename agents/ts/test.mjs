#!/usr/bin/env node
// Type-checks the agents and the SDK, then runs their unit tests with
// Node's test runner.
//
//   node test.mjs [--with-components] [TEST_FILE...]
//
// By default: every */*.test.ts here and ../../guest-sdk/ts/test/*.test.ts;
// --with-components adds component.test.mjs, which runs the built
// components (node build.mjs first).
// Each test file is bundled with esbuild (TypeScript, the SDK included) into
// build/tests/, then `node --test` runs them all. No network is used.

import { spawnSync } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const sdkTests = join(here, "..", "..", "guest-sdk", "ts", "test");

function testFiles() {
  const files = [];
  for (const entry of readdirSync(here, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === "node_modules" || entry.name === "build") continue;
    for (const file of readdirSync(join(here, entry.name))) {
      if (file.endsWith(".test.ts")) files.push(join(here, entry.name, file));
    }
  }
  for (const file of readdirSync(sdkTests)) {
    if (file.endsWith(".test.ts")) files.push(join(sdkTests, file));
  }
  return files.sort();
}

function run(command, args) {
  const result = spawnSync(command, args, { stdio: "inherit", cwd: here });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

const args = process.argv.slice(2).filter((a) => a !== "--with-components");
const withComponents = process.argv.includes("--with-components");
const files = args.length > 0 ? args.map((f) => resolve(f)) : testFiles();

const tsc = join(here, "node_modules", ".bin", "tsc");
for (const project of ["tsconfig.json", "tsconfig.test.json"]) {
  if (run(tsc, ["-p", project]) !== 0) {
    console.error(`type check failed (${project})`);
    process.exit(1);
  }
}

const out = join(here, "build", "tests");
rmSync(out, { recursive: true, force: true });
const bundles = [];
for (const file of files) {
  // sdk__tools.test.mjs, incident__app.test.mjs: one flat folder, no clashes.
  const owner = file.startsWith(sdkTests) ? "sdk" : basename(dirname(file));
  const outfile = join(out, `${owner}__${basename(file, ".ts")}.mjs`);
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

if (withComponents) bundles.push("component.test.mjs");
process.exit(run(process.execPath, ["--enable-source-maps", "--test", "--test-reporter=spec", ...bundles]));
