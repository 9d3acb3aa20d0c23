/**
 * The weather agent's one tool, an activity as Temporal's samples write it: it answers from
 * nothing but its input (no sandbox, no longrun), a few bytes whatever the city.
 */

export interface WeatherQuery {
  city: string;
}

export async function getWeather(query: WeatherQuery): Promise<string> {
  return JSON.stringify({ city: query.city, temperature: '21C', conditions: 'Partly cloudy' });
}
