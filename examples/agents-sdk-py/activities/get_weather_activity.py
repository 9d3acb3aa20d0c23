from dataclasses import dataclass

from temporalio import activity


@dataclass
class Weather:
    city: str
    temperature_range: str
    conditions: str


@activity.defn
async def get_weather(city: str) -> Weather:
    """
    Look up the current weather for a city.
    """
    return Weather(city=city, temperature_range="14-20C", conditions="Sunny with wind.")
