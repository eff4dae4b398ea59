"""Real OPML files of the shapes outliners export."""

from __future__ import annotations

from pathlib import Path

# An OmniOutliner 5 export: a head with extra elements, checkboxes (_status), notes (_note)
# with escaped line breaks, extra columns as attributes, comments, non-ASCII text, no ids.
OMNI = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE opml>
<opml version="2.0">
  <head>
    <title>Project Plan</title>
    <ownerName>Ana Lima</ownerName>
    <expansionState>0,1,3</expansionState>
    <vertScrollState>0</vertScrollState>
  </head>
  <body>
    <outline text="Launch" _status="checked" _note="Ship the first version&#10;to the pilot users."
             Priority="High" Due="2026-03-01">
      <outline text="Write release notes" _status="checked" Priority="Low"/>
      <outline text="Tag v1.0" _status="checked"/>
    </outline>
    <!-- the research column was dropped -->
    <outline text="Research" _status="unchecked" Owner='Bo "B" Chen'>
      <outline text="Interview users" _status="checked" _note="five so far"/>
      <outline text="Résumé des entretiens — 東京" _status="unchecked">
        <outline text="Draft" _status="checked"/>
        <outline text="Review" _status="unchecked"/>
      </outline>
    </outline>
    <outline text="Ideas &amp; notes">
      <outline text="Dark mode"/>
      <outline text="Offline sync" _note="needs a design"/>
    </outline>
  </body>
</opml>
"""

# Dynalist/Workflowy-like: stored ids, single quotes, attributes nobody uses.
WITH_IDS = """<?xml version="1.0"?>
<opml version="2.0"><head><title>Inbox</title></head><body>
<outline id="a" text='Alpha' color="red"><outline id="a1" text="Alpha one" x-custom="1"/></outline>
<outline id="b" text="Beta"/>
</body></opml>
"""


def write(root: Path, name: str, text: str) -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def big(rows: int) -> str:
    """An outline of ``rows`` rows: sections of 9 items each with a note."""
    body = []
    n = 0
    while n < rows:
        body.append(f'<outline text="Section {n}">')
        n += 1
        for _ in range(min(9, rows - n)):
            body.append(f'<outline text="Item {n}" _note="note {n}"/>')
            n += 1
        body.append("</outline>")
    return '<?xml version="1.0"?><opml version="2.0"><body>' + "\n".join(body) + "</body></opml>\n"
