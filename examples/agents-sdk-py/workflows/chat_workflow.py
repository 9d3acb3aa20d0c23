from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from agents import Agent, ItemHelpers, MessageOutputItem, Runner, ToolCallItem, TResponseInputItem
from temporalio import workflow
from temporalio.contrib import openai_agents as temporal_agents

from activities.get_forecast_activity import get_forecast
from activities.get_weather_activity import get_weather


@dataclass
class ChatMessage:
    user_input: str
    # How many lines of the chat the sender has seen: a message sent on a stale view is refused.
    chat_length: int


def weather_agent() -> Agent:
    return Agent(
        name="Weather desk",
        instructions="You are a helpful agent. Answer questions about the weather with your tools.",
        tools=[
            temporal_agents.workflow.activity_as_tool(get_weather, start_to_close_timeout=timedelta(seconds=10)),
            temporal_agents.workflow.activity_as_tool(get_forecast, start_to_close_timeout=timedelta(seconds=10)),
        ],
    )


@workflow.defn
class WeatherChatWorkflow:
    """A conversation that lasts: each user message is an update, answered with the chat's new lines."""

    @workflow.init
    def __init__(self, input_items: list[TResponseInputItem] | None = None):
        self.agent = weather_agent()
        self.chat_history: list[str] = []
        self.input_items: list[TResponseInputItem] = [] if input_items is None else input_items

    @workflow.run
    async def run(self, input_items: list[TResponseInputItem] | None = None) -> None:
        await workflow.wait_condition(
            lambda: workflow.info().is_continue_as_new_suggested() and workflow.all_handlers_finished()
        )
        workflow.continue_as_new(self.input_items)

    @workflow.query
    def get_chat_history(self) -> list[str]:
        return self.chat_history

    @workflow.update
    async def process_user_message(self, message: ChatMessage) -> list[str]:
        seen = len(self.chat_history)
        self.chat_history.append(f"User: {message.user_input}")
        self.input_items.append({"role": "user", "content": message.user_input})
        result = await Runner.run(self.agent, self.input_items)
        for item in result.new_items:
            if isinstance(item, MessageOutputItem):
                self.chat_history.append(f"{item.agent.name}: {ItemHelpers.text_message_output(item)}")
            elif isinstance(item, ToolCallItem):
                self.chat_history.append(f"{item.agent.name}: calling a tool")
        self.input_items = result.to_input_list()
        return self.chat_history[seen:]

    @process_user_message.validator
    def validate_process_user_message(self, message: ChatMessage) -> None:
        if not message.user_input:
            raise ValueError("User input cannot be empty.")
        if message.chat_length != len(self.chat_history):
            raise ValueError("Stale chat history. Please refresh the chat.")


@workflow.defn
class WeatherSignalChatWorkflow:
    """The same desk fed by signals: each message is queued and answered in turn; end_chat ends it once all are."""

    def __init__(self) -> None:
        self.agent = weather_agent()
        self.pending: list[str] = []
        self.input_items: list[TResponseInputItem] = []
        self.ended = False

    @workflow.run
    async def run(self) -> int:
        answered = 0
        while True:
            await workflow.wait_condition(lambda: bool(self.pending) or self.ended)
            if not self.pending:
                return answered
            self.input_items.append({"role": "user", "content": self.pending.pop(0)})
            result = await Runner.run(self.agent, self.input_items)
            self.input_items = result.to_input_list()
            answered += 1

    @workflow.signal
    def user_message(self, text: str) -> None:
        self.pending.append(text)

    @workflow.signal
    def end_chat(self) -> None:
        self.ended = True
