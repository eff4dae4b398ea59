"""``Review.current_text``: the text a suggestion would be accepted into (one copy, used by the
review operations and the REST API alike)."""

from __future__ import annotations

from pathlib import Path

from jupyter_mcp_lab.core.revision import revision_of
from tests.helpers import make_services


async def test_the_file_is_read_without_opening_a_buffer(tmp_path: Path) -> None:
    services = make_services(tmp_path)
    (services.settings.root_dir / "a.md").write_text("# A\n")
    assert await services.reviews.current_text("a.md") == ("# A\n", revision_of("# A\n"))
    assert services.docs.find("a.md") is None


async def test_an_open_buffer_wins_over_its_file(tmp_path: Path) -> None:
    services = make_services(tmp_path)
    (services.settings.root_dir / "a.md").write_text("# A\n")
    doc = await services.docs.open("a.md")
    await services.docs.commit(doc, "# A\n\nunsaved\n", expected_revision=None, save=False, dry_run=False, label="t")
    assert await services.reviews.current_text("a.md") == ("# A\n\nunsaved\n", revision_of("# A\n\nunsaved\n"))


async def test_no_readable_text_is_none(tmp_path: Path) -> None:
    services = make_services(tmp_path)
    assert await services.reviews.current_text("missing.md") is None
    assert await services.reviews.current_text("../outside.md") is None
    assert await services.reviews.current_text("x" * 300 + ".md") is None
