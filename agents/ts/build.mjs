#!/usr/bin/env node
// Builds TypeScript agents into WebAssembly components, each the way a new
// project builds itself (`wakeful new --lang ts`): with the template's
// build script (templates/ts/build.mjs), so that there is one.
//
//   node build.mjs [--out DIR] [AGENT_DIR...]
//
// Each AGENT_DIR (default: every directory here with an app.ts) holds an
// app.ts whose default export is a defineAgent(...). It is built in a
// project of its own, build/projects/<dir name>/: copies of its files, the
// WIT contract and the template's build.mjs, with links to this folder's
// toolchain (node_modules) and to the SDK (guest-sdk/ts). The component
// goes to DIR/<dir name with - as _>.wasm (default ../target/ts); its path
// is printed.
//
// The projects are kept between builds: the template's build makes a
// component again only when its inputs changed, so an unchanged agent
// keeps its .wasm, and its digest.

import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");

function parseArgs(argv) {
  const options = { out: join(here, "..", "target", "ts"), dirs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--out") {
      const value = argv[++i];
      if (value === undefined) throw new Error(`${arg} needs a value`);
      options.out = resolve(value);
    } else if (arg === "-h" || arg === "--help") {
      console.log("usage: node build.mjs [--out DIR] [AGENT_DIR...]");
      process.exit(0);
    } else {
      options.dirs.push(resolve(arg));
    }
  }
  return options;
}

function agentDirs() {
  return readdirSync(here, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== "node_modules" && existsSync(join(here, e.name, "app.ts")))
    .map((e) => join(here, e.name))
    .sort();
}

/** Makes (or refreshes) the project that builds the agent in `dir`. */
function project(dir, name) {
  const project = join(here, "build", "projects", basename(dir));
  mkdirSync(join(project, "wit"), { recursive: true });
  cpSync(dir, project, { recursive: true });
  copyFileSync(join(root, "wit", "agent.wit"), join(project, "wit", "agent.wit"));
  for (const [link, target] of [
    ["node_modules", join(here, "node_modules")],
    ["wakeful-sdk", join(root, "guest-sdk", "ts")],
  ]) {
    if (!existsSync(join(project, link))) symlinkSync(target, join(project, link));
  }
  const template = readFileSync(join(root, "templates", "ts", "build.mjs"), "utf8");
  writeFileSync(join(project, "build.mjs"), template.replaceAll("{{name_snake}}", name));
  return project;
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  const dirs = options.dirs.length > 0 ? options.dirs : agentDirs();
  if (dirs.length === 0) throw new Error(`no agent directory (one with an app.ts) under ${here}`);
  mkdirSync(options.out, { recursive: true });
  for (const dir of dirs) {
    if (!existsSync(join(dir, "app.ts"))) throw new Error(`${dir} has no app.ts`);
    const name = basename(dir).replaceAll("-", "_");
    const built = project(dir, name);
    const result = spawnSync(process.execPath, [join(built, "build.mjs")], { stdio: ["ignore", "ignore", "inherit"] });
    if (result.error) throw result.error;
    if (result.status !== 0) throw new Error(`building ${basename(dir)} failed`);
    const wasm = join(options.out, `${name}.wasm`);
    copyFileSync(join(built, `${name}.wasm`), wasm);
    console.log(wasm);
  }
}

try {
  main();
} catch (e) {
  console.error(`build failed: ${e?.stack ?? e}`);
  process.exit(1);
}
