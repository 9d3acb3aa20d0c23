"""The replayer longrun calls with history files, as `temporal workflow show --output json`
writes them: exit 0 when every one replays on this folder's WeatherWorkflow, else 1 with the
first failure (a nondeterminism, most often) as the last line of stderr.

    .venv/bin/python replay.py HISTORY.json...
"""

import os

os.environ.setdefault("OPENAI_API_KEY", "longrun-mock")

import asyncio
import sys
from pathlib import Path

from temporalio.client import WorkflowHistory
from temporalio.worker import Replayer

from genai_prices.data_snapshot import get_snapshot
from pydantic_ai.durable_exec.temporal import PydanticAIPlugin

from weather_agent import WeatherWorkflow

# The agent names its model by a string, so its first run in a workflow builds the model there,
# and building one loads genai-prices' price table (a 27,000-line module) on first use: in the
# workflow sandbox that takes past the 2 s deadlock timeout, and two workflows loading it at
# once see it half imported. Loaded here first, the sandbox passes the loaded module through.
get_snapshot()


async def main(files: list[str]) -> None:
    # A replay compares the commands a history recorded with those the code gives; how long an
    # activation takes is no part of that. debug_mode turns off the 2 s deadlock timer, which a
    # loaded machine trips on the first activation (the agent preparing its run in the sandbox).
    replayer = Replayer(workflows=[WeatherWorkflow], plugins=[PydanticAIPlugin()], debug_mode=True)
    for file in files:
        history = WorkflowHistory.from_json(Path(file).stem, Path(file).read_text())
        try:
            await replayer.replay_workflow(history)
        except Exception as error:
            why = " ".join(str(error).split()) or type(error).__name__
            raise SystemExit(f"{Path(file).name}: {type(error).__name__}: {why}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print("usage: replay.py HISTORY.json...", file=sys.stderr)
        sys.exit(2)
    code = 0
    try:
        asyncio.run(main(sys.argv[1:]))
    except SystemExit as stop:
        if not isinstance(stop.code, str):
            raise
        print(f"pydantic-ai-py replay: {stop.code}", file=sys.stderr)
        code = 1
    except Exception as error:
        print(f"pydantic-ai-py replay: {type(error).__name__}: {error}", file=sys.stderr)
        code = 1
    # The verdict is in: leave without the interpreter's finalization, which the SDK's core
    # threads can still call into (a SIGABRT, "PyGILState_Release ... finalizing", on some exits).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
