"""The worker longrun starts: WeatherWorkflow and its agent's activities on LONGRUN_TASK_QUEUE.

It reads longrun's environment (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, LONGRUN_TASK_QUEUE,
LONGRUN_WORKER_IDENTITY, LONGRUN_MODEL_URL, LONGRUN_MAX_CACHED_WORKFLOWS) and polls until
SIGTERM or SIGINT, then gives the activities in flight 12 s to finish.
"""

import os

# Before the agent is built (at import): its OpenAI provider reads the base URL and key from
# these. Pydantic AI sends no telemetry unless logfire is configured, and it is not.
if os.environ.get("LONGRUN_MODEL_URL"):
    os.environ["OPENAI_BASE_URL"] = os.environ["LONGRUN_MODEL_URL"]
os.environ.setdefault("OPENAI_API_KEY", "longrun-mock")

import asyncio
import signal
import sys
from datetime import timedelta

from temporalio.client import Client
from temporalio.worker import Worker

from genai_prices.data_snapshot import get_snapshot
from pydantic_ai.durable_exec.temporal import PydanticAIPlugin
from pydantic_ai.models import infer_model

from weather_agent import WeatherWorkflow, agent

# The agent names its model by a string, so its first run in a workflow builds the model there,
# and building one loads genai-prices' price table (a 27,000-line module) on first use: in the
# workflow sandbox that takes past the 2 s deadlock timeout, and two workflows loading it at
# once see it half imported. Loaded here first, the sandbox passes the loaded module through.
get_snapshot()
# Building the model imports the OpenAI SDK (about 570 modules): 0.5 s on an idle machine, past
# the 2 s deadlock timeout on a loaded one, where every run's first workflow task then failed.
# Built here once, the SDK is loaded and the workflow's own build takes milliseconds.
infer_model(agent.model)


def required(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise SystemExit(f"pydantic-ai-py worker: {name} is not set")
    return value


async def main() -> None:
    identity = os.environ.get("LONGRUN_WORKER_IDENTITY")
    client = await Client.connect(
        required("TEMPORAL_ADDRESS"),
        namespace=required("TEMPORAL_NAMESPACE"),
        identity=identity,
        plugins=[PydanticAIPlugin()],
    )
    max_cached = os.environ.get("LONGRUN_MAX_CACHED_WORKFLOWS")
    worker = Worker(
        client,
        task_queue=required("LONGRUN_TASK_QUEUE"),
        workflows=[WeatherWorkflow],
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
    try:
        asyncio.run(main())
    except Exception as error:  # one line for longrun's log, not a traceback
        print(f"pydantic-ai-py worker: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(1)
