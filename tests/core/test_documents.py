"""Open documents on real files: commits under the lock, saves, history, following the disk."""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path

import pytest

from jupyter_mcp_lab.core.documents import Documents
from jupyter_mcp_lab.core.errors import DomainError
from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.core.storage import FileStorage


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    (root / "notes.md").write_text("# Notes\n\nfirst\n")
    return root


@pytest.fixture
def docs(root: Path) -> Documents:
    return Documents(FileStorage(root))


def disk(root: Path, name: str = "notes.md") -> str:
    with open(root / name, encoding="utf-8", newline="") as f:
        return f.read()


def leftovers(root: Path) -> list[str]:
    """Temporary files an atomic write left behind."""
    return [p.name for p in root.rglob(".*.tmp")]


async def domain_error(awaitable, code: str) -> DomainError:
    with pytest.raises(DomainError) as info:
        await awaitable
    assert info.value.code == code, info.value
    return info.value


# --------------------------------------------------------------------------- open and read


async def test_open_reads_the_file_once_and_returns_the_same_document(docs: Documents, root: Path) -> None:
    doc = await docs.open("notes.md")
    assert (doc.key, doc.path, doc.kind, doc.title) == ("notes.md", "notes.md", "markdown", "notes")
    assert doc.text == doc.saved == "# Notes\n\nfirst\n"
    assert doc.revision == revision_of(doc.text)
    assert not doc.dirty
    assert await docs.open("notes.md") is doc
    assert docs.find("notes.md") is doc


@pytest.mark.parametrize(
    ("name", "content", "kind"),
    [
        ("a.markdown", "x", "markdown"),
        ("o.opml", "<opml/>", "outline"),
        ("n.ipynb", "{}", "notebook"),
        (".github/workflows/ci.yml", "on: push\n", "yaml-workflow"),
        ("deploy.yaml", "on:\n  push:\njobs:\n  a: {}\n", "yaml-workflow"),
        ("config.yaml", "key: value\n", "text"),
        ("script.py", "print(1)\n", "text"),
    ],
)
async def test_kind_follows_the_path_and_content(docs: Documents, root: Path, name: str, content: str, kind: str):
    (root / name).parent.mkdir(parents=True, exist_ok=True)
    (root / name).write_text(content)
    assert (await docs.open(name)).kind == kind


async def test_open_errors(docs: Documents, root: Path) -> None:
    await domain_error(docs.open("missing.md"), "NOT_FOUND")
    (root / "folder").mkdir()
    await domain_error(docs.open("folder"), "INVALID_PATH")
    (root / "binary.bin").write_bytes(b"\xff\xfe\x00bad")
    await domain_error(docs.open("binary.bin"), "INVALID_PATH")
    assert docs.find("missing.md") is None


async def test_line_endings_and_non_ascii_survive_a_round_trip(docs: Documents, root: Path) -> None:
    original = "# Über\r\n\r\nzeile 1\r\nzeile 2 🙂\r\n"
    (root / "crlf.md").write_bytes(original.encode())
    doc = await docs.open("crlf.md")
    assert doc.text == original
    await docs.commit(doc, lambda t: t.replace("zeile 2", "Zeile zwei"), save=True)
    assert (root / "crlf.md").read_bytes() == original.replace("zeile 2", "Zeile zwei").encode()


# --------------------------------------------------------------------------- commit


async def test_commit_checks_the_revision_and_answers_stale(docs: Documents, root: Path) -> None:
    doc = await docs.open("notes.md")
    read_at = doc.revision
    before, after = await docs.commit(doc, "# Notes\n\nsecond\n", expected_revision=read_at)
    assert (before, after) == ("# Notes\n\nfirst\n", "# Notes\n\nsecond\n")
    assert doc.dirty and doc.text == after
    assert disk(root) == before  # not saved: save=False
    error = await domain_error(docs.commit(doc, "lost", expected_revision=read_at), "STALE")
    assert error.details == {"current_revision": revision_of(after)}
    assert error.envelope()["current_revision"] == doc.revision
    assert doc.text == after


async def test_commit_with_a_callable_runs_under_the_lock_no_lost_updates(docs: Documents, root: Path) -> None:
    doc = await docs.open("notes.md")

    def append(text: str) -> str:
        return text + "x"

    async def slow_append(i: int) -> None:
        await asyncio.sleep(0.001 * (i % 3))
        await docs.commit(doc, append, save=i % 2 == 0)

    await asyncio.gather(*(slow_append(i) for i in range(40)))
    assert doc.text == "# Notes\n\nfirst\n" + "x" * 40
    await docs.save(doc)
    assert disk(root) == doc.text


async def test_same_expected_revision_exactly_one_commit_wins(docs: Documents, root: Path) -> None:
    doc = await docs.open("notes.md")
    for round_ in range(10):
        base = doc.revision
        contents = [f"round {round_} by {who}\n" for who in range(5)]
        results = await asyncio.gather(
            *(docs.commit(doc, c, expected_revision=base, save=True) for c in contents), return_exceptions=True
        )
        winners = [r for r in results if not isinstance(r, BaseException)]
        losers = [r for r in results if isinstance(r, BaseException)]
        assert len(winners) == 1
        assert all(isinstance(e, DomainError) and e.code == "STALE" for e in losers)
        assert all(e.details["current_revision"] == revision_of(winners[0][1]) for e in losers)
        assert disk(root) == doc.text == winners[0][1]


async def test_callable_sees_the_text_the_revision_was_checked_against(docs: Documents) -> None:
    doc = await docs.open("notes.md")
    seen: list[str] = []

    def change(text: str) -> str:
        seen.append(revision_of(text))
        return text.upper()

    await docs.commit(doc, change, expected_revision=doc.revision)
    assert seen == [revision_of("# Notes\n\nfirst\n")]


async def test_dry_run_changes_nothing(docs: Documents, root: Path) -> None:
    doc = await docs.open("notes.md")
    before, after = await docs.commit(doc, lambda t: t + "more\n", save=True, dry_run=True)
    assert after == before + "more\n"
    assert doc.text == before and not doc.dirty
    assert doc.history.undo_stack == []
    assert disk(root) == before
    # A dry run still checks the revision.
    await domain_error(docs.commit(doc, "x", expected_revision="rev-000000000000", dry_run=True), "STALE")


async def test_an_unchanged_commit_records_no_history(docs: Documents) -> None:
    doc = await docs.open("notes.md")
    rev = doc.revision
    await docs.commit(doc, doc.text)
    assert doc.history.undo_stack == []
    assert doc.revision == rev


async def test_a_failing_save_rolls_the_buffer_back(docs: Documents, root: Path) -> None:
    doc = await docs.open("notes.md")
    await docs.commit(doc, lambda t: t + "kept\n")
    kept, undo_depth = doc.text, len(doc.history.undo_stack)
    # A lone surrogate cannot be encoded as UTF-8: the write itself fails.
    with pytest.raises(UnicodeEncodeError):
        await docs.commit(doc, lambda t: t + "\ud800\n", save=True)
    assert doc.text == kept
    assert len(doc.history.undo_stack) == undo_depth
    assert disk(root) == "# Notes\n\nfirst\n"
    assert leftovers(root) == []


async def test_a_save_that_cannot_read_the_file_rolls_back_too(docs: Documents, root: Path) -> None:
    doc = await docs.open("notes.md")
    (root / "notes.md").unlink()
    (root / "notes.md").mkdir()  # replaced by a folder under us
    await domain_error(docs.commit(doc, "new\n", save=True), "INVALID_PATH")
    assert doc.text == "# Notes\n\nfirst\n"
    assert doc.history.undo_stack == []


# --------------------------------------------------------------------------- save, save as


async def test_save_is_atomic_and_keeps_the_file_mode(docs: Documents, root: Path) -> None:
    os.chmod(root / "notes.md", 0o640)
    doc = await docs.open("notes.md")
    await docs.commit(doc, "changed\n")
    inode = (root / "notes.md").stat().st_ino
    revision = await docs.save(doc)
    assert revision == revision_of("changed\n")
    assert disk(root) == "changed\n"
    assert not doc.dirty
    assert stat.S_IMODE((root / "notes.md").stat().st_mode) == 0o640
    assert (root / "notes.md").stat().st_ino != inode  # replaced by rename, not rewritten in place
    assert leftovers(root) == []


async def test_save_refuses_to_overwrite_a_change_on_disk(docs: Documents, root: Path) -> None:
    doc = await docs.open("notes.md")
    await docs.commit(doc, "ours\n")
    (root / "notes.md").write_text("theirs\n")
    error = await domain_error(docs.save(doc), "CONFLICT")
    assert error.details == {"path": "notes.md", "disk_revision": revision_of("theirs\n")}
    assert disk(root) == "theirs\n"
    assert doc.text == "ours\n" and doc.dirty
    # Saving with force overwrites on purpose.
    await docs.save(doc, force=True)
    assert disk(root) == "ours\n" and not doc.dirty


async def test_save_when_disk_already_holds_our_text_or_file_was_deleted(docs: Documents, root: Path) -> None:
    doc = await docs.open("notes.md")
    await docs.commit(doc, "same\n")
    (root / "notes.md").write_text("same\n")
    await docs.save(doc)  # no conflict: nothing would be lost
    assert not doc.dirty
    await docs.commit(doc, "again\n")
    (root / "notes.md").unlink()
    await docs.save(doc)  # deleted meanwhile: writing it back loses nothing
    assert disk(root) == "again\n"


async def test_save_as_refuses_to_overwrite_without_permission(docs: Documents, root: Path) -> None:
    (root / "other.md").write_text("other\n")
    doc = await docs.open("notes.md")
    await domain_error(docs.save_as(doc, "other.md"), "CONFLICT")
    assert disk(root, "other.md") == "other\n"
    target = await docs.save_as(doc, "other.md", overwrite=True)
    assert disk(root, "other.md") == doc.text
    assert target.path == "other.md" and not target.dirty
    assert docs.find("other.md") is target


async def test_save_as_onto_an_open_document_updates_it_with_history(docs: Documents, root: Path) -> None:
    (root / "other.md").write_text("other\n")
    other = await docs.open("other.md")
    doc = await docs.open("notes.md")
    target = await docs.save_as(doc, "other.md", overwrite=True)
    assert target is other
    assert other.text == other.saved == doc.text
    await docs.undo(other)
    assert other.text == "other\n"


async def test_save_as_to_its_own_path_keeps_one_document(docs: Documents, root: Path) -> None:
    doc = await docs.open("notes.md")
    await docs.commit(doc, "edited\n")
    target = await docs.save_as(doc, "notes.md", overwrite=True)
    assert disk(root) == "edited\n"
    # One document per path: locks and revisions stay shared by every way of reaching it.
    assert target is doc
    assert docs.find("notes.md") is doc
    assert not doc.dirty
    assert await docs.open("notes.md") is doc


async def test_untitled_then_save_as(docs: Documents, root: Path) -> None:
    doc = docs.new_untitled()
    other = docs.new_untitled("yaml-workflow")
    assert (doc.key, doc.path, doc.kind, doc.text, doc.saved) == ("untitled:1", None, "markdown", "", None)
    assert other.key == "untitled:2" and other.kind == "yaml-workflow"
    assert doc.title == "untitled-1"
    assert not doc.dirty  # nothing to lose yet
    await domain_error(docs.save(doc), "INVALID_PATH")
    await docs.commit(doc, "# Draft\n")
    assert doc.dirty  # never saved
    saved = await docs.save_as(doc, "drafts/draft.md")
    assert disk(root, "drafts/draft.md") == "# Draft\n"
    assert (saved.path, saved.key, saved.kind, saved.dirty) == ("drafts/draft.md", "drafts/draft.md", "markdown", False)
    assert docs.find("untitled:1") is None  # the untitled buffer became the file
    assert docs.find("drafts/draft.md") is saved
    assert docs.find("untitled:2") is other


# --------------------------------------------------------------------------- undo, redo


async def test_undo_and_redo(docs: Documents, root: Path) -> None:
    doc = await docs.open("notes.md")
    await docs.commit(doc, lambda t: t.replace("first", "second"), label="edit 1")
    await docs.commit(doc, lambda t: t + "third\n", label="edit 2")
    assert await docs.undo(doc) == revision_of("# Notes\n\nsecond\n")
    assert await docs.undo(doc) == revision_of("# Notes\n\nfirst\n")
    await domain_error(docs.undo(doc), "NOT_FOUND")
    assert not doc.dirty
    await docs.redo(doc, save=True)
    assert disk(root) == "# Notes\n\nsecond\n"
    await docs.redo(doc)
    assert doc.text == "# Notes\n\nsecond\nthird\n"
    await domain_error(docs.redo(doc), "NOT_FOUND")
    # A new change clears what could be redone.
    await docs.undo(doc)
    await docs.commit(doc, "fresh\n")
    await domain_error(docs.redo(doc), "NOT_FOUND")


async def test_undo_conflicts_when_the_text_changed_underneath(docs: Documents, root: Path) -> None:
    doc = await docs.open("notes.md")
    await docs.commit(doc, lambda t: t.replace("first", "second"), save=True)
    # Someone else rewrites the changed line on disk; the clean buffer follows the disk.
    (root / "notes.md").write_text("# Notes\n\nthird\n")
    error = await domain_error(docs.undo(doc), "CONFLICT")
    assert "changed" in error.message
    assert doc.text == "# Notes\n\nthird\n"
    assert disk(root) == "# Notes\n\nthird\n"


async def test_redo_conflicts_when_the_text_changed_underneath(docs: Documents, root: Path) -> None:
    doc = await docs.open("notes.md")
    await docs.commit(doc, lambda t: t.replace("first", "second"), save=True)
    await docs.undo(doc, save=True)
    (root / "notes.md").write_text("# Notes\n\nother\n")
    await domain_error(docs.redo(doc), "CONFLICT")
    assert doc.text == "# Notes\n\nother\n"


async def test_history_is_bounded(docs: Documents) -> None:
    doc = await docs.open("notes.md")
    doc.history.limit = 5
    for i in range(12):
        await docs.commit(doc, f"v{i}\n")
    assert len(doc.history.undo_stack) == 5
    for _ in range(5):
        await docs.undo(doc)
    assert doc.text == "v6\n"
    await domain_error(docs.undo(doc), "NOT_FOUND")


# --------------------------------------------------------------------------- following the disk


async def test_refresh_follows_the_disk_while_clean(docs: Documents, root: Path) -> None:
    doc = await docs.open("notes.md")
    (root / "notes.md").write_text("changed by JupyterLab\n")
    assert doc.text == "# Notes\n\nfirst\n"  # nothing is polled
    assert await docs.open("notes.md") is doc
    assert doc.text == doc.saved == "changed by JupyterLab\n"
    assert not doc.dirty
    (root / "notes.md").write_text("again\n")
    await docs.refresh(doc)
    assert doc.revision == revision_of("again\n")


async def test_refresh_keeps_unsaved_work(docs: Documents, root: Path) -> None:
    doc = await docs.open("notes.md")
    await docs.commit(doc, "unsaved\n")
    (root / "notes.md").write_text("from disk\n")
    await docs.refresh(doc)
    assert doc.text == "unsaved\n" and doc.dirty


async def test_refresh_keeps_the_buffer_when_the_file_is_deleted(docs: Documents, root: Path) -> None:
    doc = await docs.open("notes.md")
    (root / "notes.md").unlink()
    await docs.refresh(doc)
    assert doc.text == "# Notes\n\nfirst\n"


async def test_commit_after_a_disk_change_checks_against_the_disk(docs: Documents, root: Path) -> None:
    doc = await docs.open("notes.md")
    read_at = doc.revision
    (root / "notes.md").write_text("edited in JupyterLab\n")
    error = await domain_error(docs.commit(doc, "agent\n", expected_revision=read_at, save=True), "STALE")
    assert error.details["current_revision"] == revision_of("edited in JupyterLab\n")
    assert disk(root) == "edited in JupyterLab\n"
    await docs.commit(doc, "agent\n", expected_revision=error.details["current_revision"], save=True)
    assert disk(root) == "agent\n"


async def test_close_forgets_the_document(docs: Documents) -> None:
    doc = await docs.open("notes.md")
    docs.close(doc)
    assert docs.find("notes.md") is None
    assert await docs.open("notes.md") is not doc
