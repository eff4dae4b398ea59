// Shared by the tool browser and the inspector (put before their modules by base.py `esm()`):
// the form renderer arrives as source in a traitlet and is imported once per page.

const libs = (globalThis.__mcpwLibs ??= new Map());
function load(source) {
  if (!libs.has(source)) {
    const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    libs.set(source, import(/* webpackIgnore: true */ url));
  }
  return libs.get(source);
}
