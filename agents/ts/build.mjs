#!/usr/bin/env node
// Builds TypeScript agents into WebAssembly components.
//
//   node build.mjs [--out DIR] [--wit PATH] [AGENT_DIR...]
//
// Each AGENT_DIR (default: every directory here with an app.ts) holds an
// app.ts whose default export is a defineAgent(...). The agent and the SDK
// are bundled into one ES module with esbuild (an entry that exports the
// agent's info, step and migrate), then componentize-js makes it a component
// of world `agent` without wasi:http, which the host does not provide. The
// component goes to DIR/<dir name with - as _>.wasm (default ../target/ts);
// its path is printed.

import { mkdir, readdir, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { componentize } from "@bytecodealliance/componentize-js";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const options = { out: join(here, "..", "target", "ts"), wit: join(here, "..", "..", "wit"), dirs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--out" || arg === "--wit") {
      const value = argv[++i];
      if (value === undefined) throw new Error(`${arg} needs a value`);
      options[arg.slice(2)] = resolve(value);
    } else if (arg === "-h" || arg === "--help") {
      console.log("usage: node build.mjs [--out DIR] [--wit PATH] [AGENT_DIR...]");
      process.exit(0);
    } else {
      options.dirs.push(resolve(arg));
    }
  }
  return options;
}

async function exists(path) {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function agentDirs() {
  const dirs = [];
  for (const entry of (await readdir(here, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.isDirectory() && entry.name !== "node_modules" && (await exists(join(here, entry.name, "app.ts")))) {
      dirs.push(join(here, entry.name));
    }
  }
  return dirs;
}

/** Bundles `dir/app.ts` with the SDK's component entry into one ES module. */
export async function bundle(dir, outfile) {
  const app = join(dir, "app.ts");
  const entry = [
    `import agent from ${JSON.stringify(app)};`,
    `import { exportAgent } from "wakeful-sdk/component";`,
    `export const { info, step, migrate } = exportAgent(agent);`,
  ].join("\n");
  await build({
    stdin: { contents: entry, resolveDir: here, sourcefile: "component-entry.ts", loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    external: ["wakeful:*"],
    // An agent outside this folder still finds the SDK and its packages here.
    nodePaths: [join(here, "node_modules")],
    outfile,
    charset: "utf8",
    logLevel: "warning",
  });
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const dirs = options.dirs.length > 0 ? options.dirs : await agentDirs();
  if (dirs.length === 0) throw new Error(`no agent directory (one with an app.ts) under ${here}`);
  await mkdir(options.out, { recursive: true });
  for (const dir of dirs) {
    if (!(await exists(join(dir, "app.ts")))) throw new Error(`${dir} has no app.ts`);
    const name = basename(dir).replaceAll("-", "_");
    const bundled = join(here, "build", "components", `${name}.js`);
    const started = Date.now();
    await bundle(dir, bundled);
    const { component } = await componentize({
      sourcePath: bundled,
      witPath: options.wit,
      worldName: "agent",
      disableFeatures: ["http", "fetch-event"],
    });
    const wasm = join(options.out, `${name}.wasm`);
    await writeFile(wasm, component);
    console.error(`built ${basename(dir)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    console.log(wasm);
  }
}

main().catch((e) => {
  console.error(`build failed: ${e?.stack ?? e}`);
  process.exit(1);
});
