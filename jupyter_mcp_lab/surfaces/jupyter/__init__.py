"""The ``jupyter`` profile: the tool names and parameters of datalayer's jupyter-mcp-server
(17 notebook tools, as of 2.2.4), mapped onto the notebook operations, so an agent configured
for that server works here unchanged, with the person's approval: edits are suggestions under
the default policy and running code waits for the person's Allow unless they granted it.

Answers are the reference's: ``{kind, result, …}`` as structured content and the result's
prose as the text. The notebook an agent uses is its MCP session's own focus.
"""

from __future__ import annotations

from ..base import FlatTool, Surface
from ..lab.notebook import register as notebook_resources
from . import cells, execution, notebooks, reading, server
from .answers import render_error, text_of

INSTRUCTIONS = """\
Read, edit and run Jupyter notebooks. Cells are addressed by index (or cell id) within a
notebook you have opened with use_notebook; each MCP session has its own current notebook.
Every edit is a suggestion the person reviews in JupyterLab unless they let you apply:
answers say when a change is pending (applied: false, suggestionIds), and cell indexes do
not move until it is accepted. Running code asks the person in JupyterLab first unless they
granted you the notebook. Images in outputs are resources (notebook-output:…) to read."""

SURFACE = Surface(
    name="jupyter",
    title="Jupyter notebooks (jupyter-mcp-server tools)",
    instructions=INSTRUCTIONS,
    render_error=render_error,
    text=text_of,
    server_name="Jupyter MCP Server",
    extend=notebook_resources,
    tools=(
        FlatTool("list_files", server.list_files),
        FlatTool("list_kernels", server.list_kernels),
        FlatTool("use_notebook", notebooks.use_notebook),
        FlatTool("list_notebooks", notebooks.list_notebooks),
        FlatTool("restart_notebook", notebooks.restart_notebook),
        FlatTool("unuse_notebook", notebooks.unuse_notebook),
        FlatTool("read_notebook", reading.read_notebook),
        FlatTool("insert_cell", cells.insert_cell),
        FlatTool("overwrite_cell_source", cells.overwrite_cell_source),
        FlatTool("edit_cell_source", cells.edit_cell_source),
        FlatTool("read_cell", reading.read_cell),
        FlatTool("delete_cell", cells.delete_cell),
        FlatTool("clear_cell_output", cells.clear_cell_output),
        FlatTool("move_cell", cells.move_cell),
        FlatTool("execute_cell", execution.execute_cell),
        FlatTool("insert_execute_code_cell", execution.insert_execute_code_cell),
        FlatTool("execute_code", execution.execute_code),
    ),
)
