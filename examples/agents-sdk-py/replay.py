"""The replayer longrun calls with history files, as `temporal workflow show --output json`
writes them: exit 0 when every one replays on this folder's ToolsWorkflow (or WeatherChatWorkflow), else 1 with the
first failure (a nondeterminism, most often) as the last line of stderr.

    .venv/bin/python replay.py [--release v1|v2] HISTORY.json...
"""

import os

os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"

import argparse
import asyncio
import sys
from pathlib import Path

from temporalio.client import WorkflowHistory
from temporalio.contrib.openai_agents import OpenAIAgentsPlugin
from temporalio.worker import Replayer

from workflows.chat_workflow import WeatherChatWorkflow, WeatherSignalChatWorkflow


def tools_workflow(release: str) -> type:
    if release == "v2":
        from workflows.tools_workflow_v2 import ToolsWorkflow
    else:
        from workflows.tools_workflow import ToolsWorkflow
    return ToolsWorkflow


async def main(release: str, files: list[str]) -> None:
    # A replay compares the commands a history recorded with those the code gives; how long an
    # activation takes is no part of that. debug_mode turns off the 2 s deadlock timer, which a
    # loaded machine can trip with nothing nondeterministic.
    replayer = Replayer(
        workflows=[tools_workflow(release), WeatherChatWorkflow, WeatherSignalChatWorkflow],
        plugins=[OpenAIAgentsPlugin()],
        debug_mode=True,
    )
    for file in files:
        history = WorkflowHistory.from_json(Path(file).stem, Path(file).read_text())
        try:
            await replayer.replay_workflow(history)
        except Exception as error:
            why = " ".join(str(error).split()) or type(error).__name__
            raise SystemExit(f"{Path(file).name}: {type(error).__name__}: {why}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", choices=["v1", "v2"], default="v1")
    parser.add_argument("histories", nargs="+")
    args = parser.parse_args()
    code = 0
    try:
        asyncio.run(main(args.release, args.histories))
    except SystemExit as stop:
        if not isinstance(stop.code, str):
            raise
        print(f"agents-sdk-py replay: {stop.code}", file=sys.stderr)
        code = 1
    except Exception as error:
        print(f"agents-sdk-py replay: {type(error).__name__}: {error}", file=sys.stderr)
        code = 1
    # The verdict is in: leave without the interpreter's finalization, which the SDK's core
    # threads can still call into (a SIGABRT, "PyGILState_Release ... finalizing", on some exits).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
