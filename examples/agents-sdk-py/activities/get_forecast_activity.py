from dataclasses import dataclass

from temporalio import activity


@dataclass
class Forecast:
    city: str
    days: int
    outlook: str


@activity.defn
async def get_forecast(city: str, days: int) -> Forecast:
    """
    Look up the weather forecast for a city for the next few days.
    """
    return Forecast(city=city, days=days, outlook="Mild, showers on the third day.")
