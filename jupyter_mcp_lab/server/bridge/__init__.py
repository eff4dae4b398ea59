"""The lab bridge: a websocket from each JupyterLab to the server.

Through it JupyterLab reports presence (the documents open in it, the active one, the
person's cursor and selection) and carries out what agents ask for (open a file, run a
command, toggle a breakpoint, type into a terminal). Connected JupyterLabs are the
workspace's windows (``lab-1``, ``lab-2``, …; ``main`` stays for the tabs agents open).

Route: ``{base_url}mcp-lab/api/bridge``, behind Jupyter's auth like Jupyter's own
websockets (token or login cookie; origin and host checked; unauthenticated: 403).

Protocol: JSON text frames, one object each; ``type`` says which.

Client → server

``hello``     ``{type, clientId, userAgent?, version?}`` — first message. ``clientId`` names
              the browser tab (kept across reloads, so a reload gets its window back).
              The server answers ``welcome``; if another live connection already uses
              that id, ``welcome`` carries a new one for the client to adopt.
``presence``  ``{type, documents: [{path, kind, dirty}], active: path | null,
              selection: {path, anchor, head, cell?} | null, focused?, visible?}`` — the
              whole state each time (not a diff). Paths are root-relative (JupyterLab's
              local paths). ``anchor``/``head`` are Unicode code point offsets into the
              active editor's text (the client converts CodeMirror's UTF-16 offsets); in a
              notebook they are offsets into cell number ``cell``'s source.
``response``  ``{type, id, ok: true, result}`` or ``{type, id, ok: false, error: {code,
              message}}`` — the answer to one request. Error codes: NOT_FOUND,
              INVALID_ARGUMENT, UNAVAILABLE (no debugger, no terminals, …), FAILED,
              UNKNOWN_METHOD. Agents see NOT_FOUND and INVALID_ARGUMENT as such,
              UNAVAILABLE and UNKNOWN_METHOD as NOT_IMPLEMENTED, FAILED as INTERNAL;
              ``labError`` carries the client's code.
``ping``      ``{type}`` — a keep-alive (every 30 s) that updates "last seen".

Server → client

``welcome``   ``{type, clientId, window, serverVersion}``
``error``     ``{type, message}`` — a message the server could not take (the socket stays).
``request``   ``{type, id, method, params}`` — methods:
              ``openFile {path, line?}`` → ``{path, widgetId}``;
              ``activate {path}`` → ``{path, widgetId}``;
              ``listCommands {query?}`` → ``{commands: [{id, label, caption}]}``;
              ``runCommand {command, args?}`` → ``{command, label, result, running?}``
              (``running``: still going after 3 s, e.g. waiting in a dialog);
              ``toggleBreakpoint {path, line}`` → ``{path, line, set, lines}`` (in a
              notebook: a line of its active cell);
              ``openTerminal {command?, cwd?}`` → ``{terminal, widgetId}`` (opens a
              Jupyter terminal in ``cwd``, an absolute server path, and types the command
              and Enter into it);
              ``confirm {agent, user, action: runCommand | terminal | execute | kernel,
              command, args?, path?, timeoutSeconds}`` → ``{allowed}`` (a dialog naming
              the agent and the command, or the code to run in ``path``'s kernel, or
              ``interrupt`` / ``restart`` of it: Allow / Deny, Enter denies).
``cancel``    ``{type, id}`` — the server stopped waiting for that request (a confirm
              dialog that timed out closes).

A request unanswered within ``request_timeout`` (10 s; a confirm: ``confirm_timeout``)
fails with NO_LAB_CLIENT (``reason: "timeout"``); so do the pending requests of a client
that disconnects (``reason: "disconnected"``).
"""

from .handler import BRIDGE_ROUTE, BridgeHandler
from .registry import LabBridge, LabClient

__all__ = ["BRIDGE_ROUTE", "BridgeHandler", "LabBridge", "LabClient"]
