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
// its path is printed. The bundle stays in build/components/<name>.js: the
// stack frames of a step's error name its lines.
//
// componentize-js does not make the same bytes twice from the same source,
// and the host refuses a version deployed again with other bytes. So a
// component is made again only when its inputs changed (the bundle, the
// WIT, the toolchain): an unchanged agent keeps its .wasm, and its digest.

import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
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

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

/** A digest of everything a component is made from. */
async function inputsDigest(bundled, wit) {
  const hash = createHash("sha256");
  const versions = ["@bytecodealliance/componentize-js", "esbuild"].map(async (name) => {
    const manifest = JSON.parse(await readFile(join(here, "node_modules", name, "package.json"), "utf8"));
    return `${name}@${manifest.version}`;
  });
  hash.update(JSON.stringify({ toolchain: await Promise.all(versions), features: DISABLED }));
  hash.update(await readFile(bundled));
  const witFiles = (await stat(wit)).isDirectory()
    ? (await readdir(wit)).filter((f) => f.endsWith(".wit")).sort().map((f) => join(wit, f))
    : [wit];
  for (const file of witFiles) hash.update(await readFile(file));
  return hash.digest("hex");
}

/** Whether `wasm` is the component last made from these inputs. */
async function upToDate(stampPath, inputs, wasm) {
  try {
    const stamp = JSON.parse(await readFile(stampPath, "utf8"));
    return stamp.inputs === inputs && stamp.wasm === wasm && stamp.sha256 === sha256(await readFile(wasm));
  } catch {
    return false;
  }
}

const DISABLED = ["http", "fetch-event"];

async function main() {
  const options = parseArgs(process.argv.slice(2));
  // Paths in the component (its stack frames) are relative to here.
  process.chdir(here);
  const dirs = options.dirs.length > 0 ? options.dirs : await agentDirs();
  if (dirs.length === 0) throw new Error(`no agent directory (one with an app.ts) under ${here}`);
  await mkdir(options.out, { recursive: true });
  for (const dir of dirs) {
    if (!(await exists(join(dir, "app.ts")))) throw new Error(`${dir} has no app.ts`);
    const name = basename(dir).replaceAll("-", "_");
    const bundled = join(here, "build", "components", `${name}.js`);
    const stampPath = join(here, "build", "components", `${name}.stamp.json`);
    const wasm = join(options.out, `${name}.wasm`);
    const started = Date.now();
    await bundle(dir, bundled);
    const inputs = await inputsDigest(bundled, options.wit);
    if (await upToDate(stampPath, inputs, wasm)) {
      console.error(`${basename(dir)} is up to date`);
    } else {
      const { component } = await componentize({
        sourcePath: bundled,
        witPath: options.wit,
        worldName: "agent",
        disableFeatures: DISABLED,
      });
      await writeFile(wasm, component);
      await writeFile(stampPath, JSON.stringify({ inputs, wasm, sha256: sha256(component) }) + "\n");
      console.error(`built ${basename(dir)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    console.log(wasm);
  }
}

main().catch((e) => {
  console.error(`build failed: ${e?.stack ?? e}`);
  process.exit(1);
});
