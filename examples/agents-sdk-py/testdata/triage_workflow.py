# Recorded with the example's worker and replay.py under longrun (a scenario like agents-sdk-py-smoke with this file as
# workflows/tools_workflow.py): triage-run-0001.json, a fixture of src/checks/python-histories.test.ts.
# A triage agent that hands off (its instructions change) and uses an agent as a tool (a conversation of its own).
from __future__ import annotations

from datetime import timedelta

from agents import Agent, Runner
from temporalio import workflow
from temporalio.contrib import openai_agents as temporal_agents

from activities.get_weather_activity import get_weather


@workflow.defn
class ToolsWorkflow:
    @workflow.run
    async def run(self, question: str) -> str:
        weather = Agent(
            name="Weather agent",
            instructions="You answer weather questions.",
            tools=[temporal_agents.workflow.activity_as_tool(get_weather, start_to_close_timeout=timedelta(seconds=10))],
        )
        spanish = Agent(name="Spanish agent", instructions="You only speak Spanish.")
        triage = Agent(
            name="Triage agent",
            instructions="Hand off to the right agent.",
            handoffs=[weather, spanish],
            tools=[weather.as_tool(tool_name="ask_weather", tool_description="Ask the weather agent")],
        )
        result = await Runner.run(triage, input=question)
        return str(result.final_output)
