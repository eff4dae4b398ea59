"""The extension loads without the optional ``rtc`` extra (jupyter-collaboration, pycrdt,
jupyter-ydoc), as Binder and a plain ``pip install jupyter-mcp-lab`` have it."""

import subprocess
import sys

# Each name set to None in sys.modules makes its import fail, as if it were not installed.
OPTIONAL = ("pycrdt", "jupyter_ydoc", "jupyter_server_ydoc", "jupyter_collaboration")
WITHOUT = f"import sys\nfor name in {OPTIONAL!r}:\n    sys.modules[name] = None\n"


def test_the_extension_and_its_storage_load_without_live_documents() -> None:
    code = WITHOUT + "import jupyter_mcp_lab.server.app, jupyter_mcp_lab.server.live_storage\nprint('ok')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
