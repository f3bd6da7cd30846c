"""JupyterLab for the course: the whole repository to read, `workspace/` the only place to write.

`make lab` runs `python -m solutions.course.lab`. JupyterLab is rooted at the repository, so
every "see `solutions/...`" link of a lesson (the reference module, the solved twin, the cases)
opens from the file browser, and it starts with the file browser in `workspace/`, where the
learner's own copies are. Everything outside `workspace/` is read-only there
(`WorkspaceContentsManager`): a reference module or a pristine lesson can be opened, run and
read, never saved over, renamed or deleted; a notebook opened from `lessons/` or `solutions/`
shows as read-only, and "Save As" into `workspace/` keeps a copy. JupyterLab asks no server for
news or updates (the course runs offline).
"""
from __future__ import annotations

import sys
from pathlib import Path, PurePosixPath
from typing import Any

from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager
from tornado.web import HTTPError
from traitlets import Unicode

ROOT = Path(__file__).resolve().parents[2]
WORKSPACE = "workspace"
OPEN_AT = f"/lab/tree/{WORKSPACE}"


def in_workspace(path: str, workspace: str = WORKSPACE) -> bool:
    """True when the API path `path` (relative to the root, '/'-separated) lies inside `workspace`."""
    parts = PurePosixPath(path.strip("/")).parts
    if ".." in parts:
        return False
    return bool(parts) and parts[0] == workspace


class WorkspaceContentsManager(AsyncLargeFileManager):
    """Files anywhere under the root can be read; only those in `workspace` can be written."""

    workspace = Unicode(WORKSPACE, config=True, help="the one folder, under the root, that may be written")

    def _writable(self, path: str) -> bool:
        """Whether the learner may change `path` (the workspace folder and what it holds)."""
        return in_workspace(path, self.workspace)

    def _refuse(self, path: str, what: str) -> None:
        """Raise the HTTP error JupyterLab shows when `path` lies outside the workspace."""
        if not self._writable(path):
            raise HTTPError(403, f"{path.strip('/')} is part of the course and read-only here, so it cannot be "
                                 f"{what}: your own copies are in {self.workspace}/ (File > Save As "
                                 f"into {self.workspace}/ keeps one)")

    async def get(self, path: str, content: bool = True, type: str | None = None,
                  format: str | None = None, **kwargs: Any) -> dict:
        """The file or folder's model, marked read-only outside the workspace."""
        model = await super().get(path, content=content, type=type, format=format, **kwargs)
        if not self._writable(path):
            model["writable"] = False
        return model

    async def save(self, model: dict, path: str = "") -> dict:
        """Save inside the workspace; anywhere else is refused."""
        self._refuse(path, "saved")
        return await super().save(model, path)

    async def delete_file(self, path: str) -> None:
        """Delete inside the workspace (the workspace folder itself included); refused elsewhere."""
        self._refuse(path, "deleted")
        if PurePosixPath(path.strip("/")).parts == (self.workspace,):
            raise HTTPError(403, f"{self.workspace}/ holds your work and cannot be deleted from here")
        await super().delete_file(path)

    async def rename_file(self, old_path: str, new_path: str) -> None:
        """Rename within the workspace; moving anything in or out of it is refused."""
        self._refuse(old_path, "renamed")
        self._refuse(new_path, "written")
        await super().rename_file(old_path, new_path)

    async def copy(self, from_path: str, to_path: str | None = None) -> dict:
        """Copy anything into the workspace (a lesson, a reference module), never out of it."""
        self._refuse(to_path or from_path.rpartition("/")[0], "written")
        return await super().copy(from_path, to_path)

    async def restore_checkpoint(self, checkpoint_id: str, path: str) -> None:
        """Revert a file of the workspace to a checkpoint; refused elsewhere."""
        self._refuse(path, "reverted")
        await super().restore_checkpoint(checkpoint_id, path)


def lab_arguments(root: Path = ROOT, allow_root: bool = False) -> list[str]:
    """JupyterLab's command-line options for the course (used by `make lab` and by the tests)."""
    options = [f"--ServerApp.root_dir={root}",
               f"--ServerApp.contents_manager_class={WorkspaceContentsManager.__module__}."
               f"{WorkspaceContentsManager.__name__}",
               f"--LabApp.default_url={OPEN_AT}",
               "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    return options + (["--allow-root"] if allow_root else [])


def main(argv: list[str] | None = None) -> None:
    """Start JupyterLab for the course; extra options are passed on (e.g. --port 8889, --no-browser;
    a --ServerApp.root_dir=DIR of their own replaces the repository as the root)."""
    from jupyterlab.labapp import LabApp

    argv = sys.argv[1:] if argv is None else argv
    roots = [arg.partition("=")[2] for arg in argv if arg.startswith("--ServerApp.root_dir=")]
    rest = [arg for arg in argv if not arg.startswith("--ServerApp.root_dir=")]
    LabApp.launch_instance(argv=lab_arguments(Path(roots[-1]) if roots else ROOT) + rest)


if __name__ == "__main__":
    main()
