/** What the forecast feature offers the routes and the other features: they import it from here and nowhere else (docs/architecture.md, "Server layout"). */
export { forecastSettlement, settleForecast } from './forecast.ts';
