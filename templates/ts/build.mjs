#!/usr/bin/env node
// Builds this agent (app.ts, whose default export is a defineAgent(...))
// into the WebAssembly component {{name_snake}}.wasm, here, and prints its path.
//
//   npm run build        (npm install first)
//
// esbuild bundles app.ts and the SDK into one ES module exporting the
// agent's info, step and migrate (build/{{name_snake}}.js: the stack frames of
// a step's error name its lines); componentize-js makes it a component of
// world `agent` (wit/agent.wit) without wasi:http, which the host does not
// provide.
//
// componentize-js never makes the same bytes twice, and the host refuses a
// version deployed again with other bytes. So the component is made again
// only when its inputs changed (the bundle, the WIT, the toolchain): an
// unchanged agent keeps its .wasm, and its digest.

import { createHash } from "node:crypto";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const NAME = "{{name_snake}}";
const wasm = join(here, `${NAME}.wasm`);
const bundled = join(here, "build", `${NAME}.js`);
const stampPath = join(here, "build", `${NAME}.stamp.json`);
const wit = join(here, "wit");
const DISABLED = ["http", "fetch-event"];

function fail(message) {
  console.error(`build: ${message}`);
  process.exit(1);
}

/** The toolchain from node_modules, or a failure that says to install it. */
async function toolchain() {
  const major = Number(process.versions.node.split(".")[0]);
  if (major < 20) fail(`node ${process.version} is too old: this project needs Node.js 20 or later`);
  try {
    const { build } = await import("esbuild");
    const { componentize } = await import("@bytecodealliance/componentize-js");
    return { build, componentize };
  } catch (e) {
    if (e?.code === "ERR_MODULE_NOT_FOUND") {
      fail(`the toolchain is not installed (${e.message.split("\n")[0]}): run 'npm install' here first`);
    }
    throw e;
  }
}

async function exists(path) {
  return stat(path).then(
    () => true,
    () => false,
  );
}

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

/** A digest of everything the component is made from. */
async function inputsDigest() {
  const hash = createHash("sha256");
  const versions = ["@bytecodealliance/componentize-js", "esbuild"].map(async (name) => {
    const manifest = JSON.parse(await readFile(join(here, "node_modules", name, "package.json"), "utf8"));
    return `${name}@${manifest.version}`;
  });
  hash.update(JSON.stringify({ toolchain: await Promise.all(versions), features: DISABLED }));
  hash.update(await readFile(bundled));
  hash.update(await readFile(join(wit, "agent.wit")));
  return hash.digest("hex");
}

/** Whether {{name_snake}}.wasm is the component last made from these inputs. */
async function upToDate(inputs) {
  try {
    const stamp = JSON.parse(await readFile(stampPath, "utf8"));
    return stamp.inputs === inputs && stamp.sha256 === sha256(await readFile(wasm));
  } catch {
    return false;
  }
}

async function main() {
  for (const [file, why] of [
    ["app.ts", "the agent"],
    ["wit/agent.wit", "the contract: 'wakeful wit > wit/agent.wit' writes it"],
    ["node_modules/wakeful-sdk/package.json", "the SDK: 'npm install' puts it there"],
  ]) {
    if (!(await exists(join(here, file)))) fail(`no ${file} in ${here} (${why})`);
  }
  const { build, componentize } = await toolchain();
  // Paths in the component (its stack frames) are relative to here.
  process.chdir(here);
  await mkdir(join(here, "build"), { recursive: true });
  const started = Date.now();
  const entry = [
    `import agent from "./app.ts";`,
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
    outfile: bundled,
    charset: "utf8",
    logLevel: "warning",
  });
  const inputs = await inputsDigest();
  if (await upToDate(inputs)) {
    console.error(`${NAME}.wasm is up to date`);
  } else {
    const { component } = await componentize({
      sourcePath: bundled,
      witPath: wit,
      worldName: "agent",
      disableFeatures: DISABLED,
    });
    await writeFile(wasm, component);
    await writeFile(stampPath, JSON.stringify({ inputs, sha256: sha256(component) }) + "\n");
    console.error(`built ${NAME}.wasm in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  console.log(wasm);
}

main().catch((e) => fail(`${e?.stack ?? e}`));
