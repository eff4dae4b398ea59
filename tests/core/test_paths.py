"""Workspace paths: everything an agent names stays inside the root."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from jupyter_mcp_lab.core.errors import DomainError
from jupyter_mcp_lab.core.paths import resolve_in_root, root_relative, to_api_path


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    (root / "docs" / "sub").mkdir(parents=True)
    (root / "docs" / "a.md").write_text("# A\n")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.md").write_text("secret\n")
    return root


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("docs/a.md", "docs/a.md"),
        ("./docs/a.md", "docs/a.md"),
        ("docs//a.md", "docs/a.md"),
        ("docs/./sub/../a.md", "docs/a.md"),
        ("docs/sub/../../docs/a.md", "docs/a.md"),
        ("docs/new.md", "docs/new.md"),  # need not exist yet (save as)
        ("new/dir/file.md", "new/dir/file.md"),
        ("docs\\a.md", "docs/a.md"),  # Windows separators
        ("docs\\sub\\..\\a.md", "docs/a.md"),
        (".\\docs\\a.md", "docs/a.md"),
        ("docs/a.md/", "docs/a.md"),
        ("notes with spaces.md", "notes with spaces.md"),
        ("日本語/ノート.md", "日本語/ノート.md"),
        ("~/x.md", "~/x.md"),  # no home expansion: a folder named ~ in the root
    ],
)
def test_relative_paths_are_normalized(root: Path, given: str, expected: str) -> None:
    assert to_api_path(root, given) == expected


def test_absolute_path_inside_the_root_becomes_relative(root: Path) -> None:
    assert to_api_path(root, str(root / "docs" / "a.md")) == "docs/a.md"
    assert to_api_path(root, str(root / "docs" / "sub" / ".." / "a.md")) == "docs/a.md"
    assert to_api_path(root, str(root / "not-yet.md")) == "not-yet.md"
    # Windows-style separators in an absolute path.
    assert to_api_path(root, str(root / "docs" / "a.md").replace("/", "\\")) == "docs/a.md"


def test_absolute_path_through_a_symlinked_root(root: Path, tmp_path: Path) -> None:
    alias = tmp_path / "alias"
    alias.symlink_to(root, target_is_directory=True)
    # The root as configured may itself be a link; both spellings name the same file.
    assert to_api_path(alias, str(alias / "docs" / "a.md")) == "docs/a.md"
    assert to_api_path(alias, str(root / "docs" / "a.md")) == "docs/a.md"
    assert to_api_path(root, str(alias / "docs" / "a.md")) == "docs/a.md"


def invalid(root: Path, path: object) -> DomainError:
    with pytest.raises(DomainError) as info:
        to_api_path(root, path)  # type: ignore[arg-type]
    assert info.value.code == "INVALID_PATH"
    envelope = info.value.envelope()
    assert envelope["error"] == "INVALID_PATH"
    assert envelope["message"]
    assert "path" in envelope
    return info.value


@pytest.mark.parametrize(
    "given",
    [
        "..",
        "../x.md",
        "../root/docs/a.md",  # even when it comes back in
        "docs/../../x.md",
        "docs/sub/../../../x.md",
        "..\\x.md",
        "docs\\..\\..\\x.md",
    ],
)
def test_climbing_out_is_refused(root: Path, given: str) -> None:
    assert "climbs out" in invalid(root, given).message


@pytest.mark.parametrize("given", ["", "   ", ".", "./", "docs/..", "\\"])
def test_the_root_itself_or_nothing_is_refused(root: Path, given: str) -> None:
    invalid(root, given)


def test_non_string_is_refused(root: Path) -> None:
    invalid(root, None)
    invalid(root, 42)


@pytest.mark.parametrize("given", ["a\0b.md", "\0", "docs/a.md\0.txt"])
def test_nul_is_refused(root: Path, given: str) -> None:
    assert "NUL" in invalid(root, given).message


def test_absolute_path_outside_the_root_is_refused(root: Path, tmp_path: Path) -> None:
    for given in ["/etc/passwd", str(tmp_path / "outside" / "secret.md"), str(root) + "/../outside/secret.md"]:
        assert "outside the workspace root" in invalid(root, given).message
    # A sibling whose name merely starts with the root's name is outside too.
    sibling = tmp_path / "root-other"
    sibling.mkdir()
    invalid(root, str(sibling / "x.md"))


def test_symlink_inside_the_root_pointing_outside_is_refused(root: Path, tmp_path: Path) -> None:
    (root / "escape").symlink_to(tmp_path / "outside", target_is_directory=True)
    (root / "docs" / "secret-link.md").symlink_to(tmp_path / "outside" / "secret.md")
    (root / "dangling.md").symlink_to(tmp_path / "outside" / "not-there.md")
    for given in [
        "escape/secret.md",
        "escape",
        "docs/secret-link.md",
        "dangling.md",  # a dangling link still leads outside: a write would land there
        str(root / "escape" / "secret.md"),  # absolute spelling of the same
        "docs/../escape/secret.md",
    ]:
        assert "symlink" in invalid(root, given).message, given
    # resolve_in_root refuses the same, for paths that are already in API form.
    with pytest.raises(DomainError) as info:
        resolve_in_root(root, "escape/secret.md")
    assert info.value.code == "INVALID_PATH"


def test_symlink_loop_is_refused_not_a_crash(root: Path) -> None:
    (root / "loop").symlink_to(root / "loop")
    (root / "ping").symlink_to(root / "pong")
    (root / "pong").symlink_to(root / "ping")
    for given in ["loop", "loop/x.md", "ping", str(root / "pong")]:
        assert "cannot be resolved" in invalid(root, given).message, given
    with pytest.raises(DomainError) as info:
        resolve_in_root(root, "loop")
    assert info.value.code == "INVALID_PATH"


def test_symlink_inside_the_root_pointing_inside_is_fine(root: Path) -> None:
    (root / "docs-link").symlink_to(root / "docs", target_is_directory=True)
    (root / "a-link.md").symlink_to(root / "docs" / "a.md")
    assert to_api_path(root, "docs-link/a.md") == "docs-link/a.md"
    assert to_api_path(root, "a-link.md") == "a-link.md"
    assert resolve_in_root(root, "docs-link/a.md") == (root / "docs" / "a.md").resolve()


def test_resolve_in_root_gives_the_real_path(root: Path) -> None:
    assert resolve_in_root(root, "docs/a.md") == (root / "docs" / "a.md").resolve()
    assert resolve_in_root(root, "docs/missing.md") == (root / "docs" / "missing.md").resolve()
    assert os.path.isabs(resolve_in_root(root, "x"))


def test_a_leading_slash_means_the_filesystem_for_operations_and_the_root_for_the_rest_api(root: Path) -> None:
    # The one documented difference between the surfaces, in one function.
    assert to_api_path(root, str(root / "docs" / "a.md")) == "docs/a.md"
    with pytest.raises(DomainError) as info:
        to_api_path(root, "/docs/a.md")
    assert info.value.code == "INVALID_PATH" and "outside" in info.value.message
    assert to_api_path(root, "/docs/a.md", leading_slash="root") == "docs/a.md"
    assert to_api_path(root, "//docs/./a.md", leading_slash="root") == "docs/a.md"
    assert to_api_path(root, "docs/a.md", leading_slash="root") == "docs/a.md"
    for refused in ("/", "///", "/../outside/secret.md"):
        with pytest.raises(DomainError) as info:
            to_api_path(root, refused, leading_slash="root")
        assert info.value.code == "INVALID_PATH", refused
    assert root_relative("/docs/a.md") == root_relative("docs/a.md") == "docs/a.md"
