from __future__ import annotations

from datetime import timedelta

from agents import Agent, Runner
from temporalio import workflow
from temporalio.contrib import openai_agents as temporal_agents

from activities.get_forecast_activity import get_forecast
from activities.get_weather_activity import get_weather


# Release 2 of the same agent: it also gets a forecast tool. The tools are chosen once, at the
# run's first workflow task, behind a patch: a run that release 1 began has no marker, so it
# keeps release 1's tools when this release takes it over (or replays it).
@workflow.defn
class ToolsWorkflow:
    @workflow.run
    async def run(self, question: str) -> str:
        tools = [
            temporal_agents.workflow.activity_as_tool(
                get_weather, start_to_close_timeout=timedelta(seconds=10)
            )
        ]
        if workflow.patched("forecast-tool"):
            tools.append(
                temporal_agents.workflow.activity_as_tool(
                    get_forecast, start_to_close_timeout=timedelta(seconds=10)
                )
            )
        agent = Agent(
            name="Hello world",
            instructions="You are a helpful agent.",
            tools=tools,
        )

        result = await Runner.run(agent, input=question)
        return result.final_output
