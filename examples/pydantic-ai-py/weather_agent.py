"""A weather agent made durable with Pydantic AI's Temporal capability, and the workflow that runs it.

The agent and the workflow live at the top of the module: the worker imports the agent to
register its activities (through `__pydantic_ai_agents__` and `PydanticAIPlugin`), and Temporal
needs workflows defined at module level.
"""

from dataclasses import dataclass

from temporalio import workflow

from pydantic_ai import Agent
from pydantic_ai.durable_exec.temporal import PydanticAIWorkflow, TemporalDurability


@dataclass
class Weather:
    city: str
    temperature_range: str
    conditions: str


@dataclass
class Forecast:
    city: str
    days: int
    outlook: str


agent = Agent(
    'openai:gpt-5.6-sol',
    instructions='You are a helpful agent. Answer questions about the weather with your tools.',
    name='weather',
    capabilities=[TemporalDurability()],
)


@agent.tool_plain
async def get_weather(city: str) -> Weather:
    """Look up the current weather for a city."""
    return Weather(city=city, temperature_range='14-20C', conditions='Sunny with wind.')


@agent.tool_plain
async def get_forecast(city: str, days: int) -> Forecast:
    """Look up the weather forecast for a city for the next few days."""
    return Forecast(city=city, days=days, outlook='Mild, showers on the third day.')


@workflow.defn
class WeatherWorkflow(PydanticAIWorkflow):
    __pydantic_ai_agents__ = [agent]

    @workflow.run
    async def run(self, prompt: str) -> str:
        result = await agent.run(prompt)
        return result.output
