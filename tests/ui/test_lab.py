"""The widgets where learners use them: JupyterLab in a real (headless) browser. Run by `make test-ui`.

Each test opens a copy of a notebook, runs all its cells, then presses the widgets' buttons the
way a learner does and checks what the page shows against what the reference code computes.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from mockllm import MockLLM
from solutions.agent import run_agent
from solutions.tools import world_tools
from solutions.course.widgets import Playground

CELL_MS = 120_000  # the slowest cell of a notebook here, on a busy machine
PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"  # the notebook on show
RUN = "Is tomorrow morning good for a run in Beijing?"  # lesson 00's run
FIFTY = "What is today's date, and what date is it 50 days from now?"  # as in tests/ui/widgets.ipynb

pytestmark = pytest.mark.allow_hosts(["127.0.0.1"])  # the browser and JupyterLab, on loopback only


KERNEL_STATUS = """() => {
    const panel = window.jupyterapp.shell.currentWidget;
    const kernel = panel && panel.sessionContext && panel.sessionContext.session
        && panel.sessionContext.session.kernel;
    return kernel ? kernel.status : 'none';
}"""
NOT_RUN = """() => {
    const model = window.jupyterapp.shell.currentWidget.content.model;
    const left = [];
    for (let i = 0; i < model.cells.length; i++) {
        const cell = model.cells.get(i);
        if (cell.type === 'code' && cell.executionCount === null) {
            left.push(`cell ${i}: ${cell.sharedModel.getSource().split('\\n')[0].slice(0, 80)}`);
        }
    }
    return left;
}"""


def wait_or_fail(page, condition: str, what: str, name: str, screenshots: Path) -> None:
    """Wait until the JavaScript `condition` holds; else save a screenshot and fail saying which
    code cells of the notebook have not run."""
    try:
        page.wait_for_function(condition, timeout=CELL_MS)
    except Exception as error:  # Playwright's TimeoutError, or the page gone
        picture = screenshots / f"stuck-{name.removesuffix('.ipynb')}.png"
        page.screenshot(path=str(picture))
        left = page.evaluate(NOT_RUN) if page.evaluate(KERNEL_STATUS) != "none" else ["(no kernel)"]
        pytest.fail(f"{name}: {what} within {CELL_MS // 1000} s ({type(error).__name__}); kernel "
                    f"{page.evaluate(KERNEL_STATUS)}; code cells not run: {left[:10]}; screenshot "
                    f"{picture}", pytrace=False)


def open_and_run_all(page, lab: tuple[str, str], name: str, screenshots: Path):
    """Open notebook `name` of workspace/, clear its outputs, run all its cells; return its panel once the
    kernel is idle and every code cell has an execution count in the notebook's model (read from
    JupyterLab's own model, not from prompts, which a page may not render while out of view)."""
    base, token = lab
    # `reset`: a layout of its own, without the tabs an earlier test left open.
    page.goto(f"{base}/lab/tree/workspace/{name}?reset&token={token}", timeout=CELL_MS)
    panel = page.locator(PANEL)
    panel.locator(".jp-CodeCell").first.wait_for(timeout=CELL_MS)
    wait_or_fail(page, f"() => ({KERNEL_STATUS})() === 'idle'", "the kernel was not idle", name, screenshots)
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    wait_or_fail(page, f"() => ({NOT_RUN})().length === 0 && ({KERNEL_STATUS})() === 'idle'",
                 "not every code cell ran", name, screenshots)
    errors = panel.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    assert errors.count() == 0, f"a cell of {name} failed: {errors.first.inner_text()[:2000]}"
    return panel


def test_the_trace_viewer_steps_forward_in_lesson_00(page, lab, expect, screenshots: Path) -> None:
    trace = run_agent(RUN, MockLLM(persona="diligent", seed=0), world_tools(), max_steps=5)
    actions, count = [step.action for step in trace.steps], len(trace.steps)
    viewer = open_and_run_all(page, lab, "00_welcome.ipynb", screenshots).locator(".react-trace-viewer")
    expect(viewer).to_have_count(1, timeout=CELL_MS)
    shown = viewer.locator(".react-trace-step")
    # The notebook's own cell pressed Next once: step 2, the weather call, sent four messages.
    expect(shown).to_contain_text(f"Step 2 of {count}", timeout=CELL_MS)
    expect(shown).to_contain_text("Messages sent (4)")
    expect(shown.locator("code").first).to_have_text(actions[1])
    viewer.scroll_into_view_if_needed()
    viewer.screenshot(path=str(screenshots / "viewer-step-2.png"))
    viewer.locator("button", has_text="Next").click()
    expect(shown).to_contain_text(f"Step 3 of {count}")
    expect(shown.locator("code").first).to_have_text(actions[2])
    expect(viewer.locator("input, .widget-readout").last).to_contain_text("3")
    viewer.screenshot(path=str(screenshots / "viewer-step-3.png"))


def test_the_playground_runs_another_persona(page, lab, expect, screenshots: Path) -> None:
    expected = Playground(question=FIFTY)
    expected.persona.value = "looper"
    expected.run.click()
    line = expected.output.outputs[0]["text"].strip()
    playground = open_and_run_all(page, lab, "widgets.ipynb", screenshots).locator(".react-playground")
    expect(playground).to_contain_text("diligent · run_agent")  # the notebook's own run
    playground.locator("select").select_option("looper")
    playground.locator("button", has_text="Run").click()
    expect(playground).to_contain_text(line, timeout=CELL_MS)
    shown = playground.locator(".react-trace-step")
    expect(shown).to_contain_text(f"Step 1 of {len(expected.trace.steps)}")
    playground.locator("button", has_text="Next").click()
    expect(shown).to_contain_text("Step 2 of")
    expect(shown).to_contain_text("persona looper")
    expect(shown.locator("code").first).to_have_text(expected.trace.steps[1].action)
    playground.scroll_into_view_if_needed()
    playground.screenshot(path=str(screenshots / "playground-second-trace.png"))


def test_approve_runs_the_waiting_call_and_deny_does_not(page, lab, expect, screenshots: Path) -> None:
    panel = open_and_run_all(page, lab, "widgets.ipynb", screenshots)
    for kind, decision, picture in (("to-approve", "Approve", "approved"), ("to-deny", "Deny", "denied")):
        buttons = panel.locator(f".{kind}")
        expect(buttons).to_contain_text("Waiting for approval: delete_orders")
        buttons.scroll_into_view_if_needed()
        buttons.locator("button", has_text=decision).click()
        expect(buttons).to_contain_text(f"{decision.lower()}: delete_orders", timeout=CELL_MS)
        expect(buttons).to_contain_text("-> the run answered")
        expect(buttons).to_contain_text("Nothing waits for approval.")
        expect(buttons.locator("button", has_text="Approve")).to_be_disabled()
        buttons.screenshot(path=str(screenshots / f"{picture}.png"))
    expect(panel.locator(".to-approve")).to_contain_text("Deleted")
    expect(panel.locator(".to-deny")).to_contain_text("Not run: delete_orders needs approval")
    expect(panel.locator(".to-approve")).not_to_contain_text("Not run: delete_orders")


def test_a_lesson_opens_its_reference_module_read_only(page, lab, expect, screenshots: Path) -> None:
    base, token = lab
    page.goto(f"{base}/lab/tree/workspace/00_welcome.ipynb?reset&token={token}", timeout=CELL_MS)
    link = page.locator(PANEL).locator(".jp-RenderedMarkdown a[href*='solutions/chat.py']").first
    link.scroll_into_view_if_needed(timeout=CELL_MS)
    link.click()
    editor = page.locator(".jp-FileEditor:not(.lm-mod-hidden)")
    expect(editor).to_contain_text("def ask(", timeout=CELL_MS)
    opened = page.evaluate("() => { const c = window.jupyterapp.shell.currentWidget.context;"
                           " return [c.path, c.contentsModel.writable]; }")
    assert opened == ["solutions/chat.py", False]
    page.screenshot(path=str(screenshots / "reference-module.png"))
