"""The worker longrun starts: ToolsWorkflow, WeatherChatWorkflow and their activities on LONGRUN_TASK_QUEUE.

It reads longrun's environment (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, LONGRUN_TASK_QUEUE,
LONGRUN_WORKER_IDENTITY, LONGRUN_MODEL_URL, LONGRUN_MAX_CACHED_WORKFLOWS) and polls until
SIGTERM or SIGINT, then gives the activities in flight 12 s to finish. `--release v2` runs the
agent's second release (workflows/tools_workflow_v2.py) instead of the first.
"""

import os

# Before the SDKs load. The OpenAI client reads its base URL and key from these; the Agents SDK
# would post its traces to api.openai.com, and there is no network here.
if os.environ.get("LONGRUN_MODEL_URL"):
    os.environ["OPENAI_BASE_URL"] = os.environ["LONGRUN_MODEL_URL"]
os.environ.setdefault("OPENAI_API_KEY", "longrun-mock")
os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"

import argparse
import asyncio
import signal
import sys
from datetime import timedelta

from agents import set_tracing_disabled
from temporalio.client import Client
from temporalio.contrib.openai_agents import ModelActivityParameters, OpenAIAgentsPlugin
from temporalio.worker import Worker

from activities.get_forecast_activity import get_forecast
from activities.get_weather_activity import get_weather
from workflows.chat_workflow import WeatherChatWorkflow, WeatherSignalChatWorkflow


def required(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise SystemExit(f"agents-sdk-py worker: {name} is not set")
    return value


def tools_workflow(release: str) -> type:
    if release == "v2":
        from workflows.tools_workflow_v2 import ToolsWorkflow
    else:
        from workflows.tools_workflow import ToolsWorkflow
    return ToolsWorkflow


async def main(release: str) -> None:
    set_tracing_disabled(True)
    identity = os.environ.get("LONGRUN_WORKER_IDENTITY")
    client = await Client.connect(
        required("TEMPORAL_ADDRESS"),
        namespace=required("TEMPORAL_NAMESPACE"),
        identity=identity,
        plugins=[
            OpenAIAgentsPlugin(
                model_params=ModelActivityParameters(
                    start_to_close_timeout=timedelta(seconds=30)
                )
            ),
        ],
    )
    max_cached = os.environ.get("LONGRUN_MAX_CACHED_WORKFLOWS")
    worker = Worker(
        client,
        task_queue=required("LONGRUN_TASK_QUEUE"),
        workflows=[tools_workflow(release), WeatherChatWorkflow, WeatherSignalChatWorkflow],
        activities=[get_weather, get_forecast],
        identity=identity,
        graceful_shutdown_timeout=timedelta(seconds=12),
        **({"max_cached_workflows": int(max_cached)} if max_cached else {}),
    )

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    # Leaving the block shuts the worker down: no new polls, then the activities in flight get
    # graceful_shutdown_timeout to finish before they are cancelled.
    async with worker:
        await stop.wait()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", choices=["v1", "v2"], default="v1")
    args = parser.parse_args()
    try:
        asyncio.run(main(args.release))
    except Exception as error:  # one line for longrun's log, not a traceback
        print(f"agents-sdk-py worker: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(1)
