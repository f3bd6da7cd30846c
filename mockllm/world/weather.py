"""Daily weather for five cities, 2025-03-07 to 2025-03-21 (Paris has no data on purpose)."""
from __future__ import annotations

from datetime import date as _date

from .clock import parse_date

# city -> rows of (date, condition, min °C, max °C, wind direction, wind km/h, AQI)
_TABLE: dict[str, tuple[tuple[str, str, int, int, str, int, int], ...]] = {
    "Beijing": (
        ("2025-03-07", "Sunny", -1, 11, "NW", 20, 48),
        ("2025-03-08", "Sunny", 0, 12, "N", 15, 56),
        ("2025-03-09", "Partly cloudy", 2, 14, "S", 10, 97),
        ("2025-03-10", "Hazy", 4, 15, "S", 8, 143),
        ("2025-03-11", "Cloudy", 3, 12, "NE", 12, 88),
        ("2025-03-12", "Sunny", 1, 14, "NW", 25, 41),
        ("2025-03-13", "Sunny", 1, 13, "NW", 15, 52),
        ("2025-03-14", "Partly cloudy", 3, 15, "N", 10, 74),
        ("2025-03-15", "Dust storm", 0, 9, "NW", 45, 182),
        ("2025-03-16", "Sunny", 2, 16, "W", 10, 65),
        ("2025-03-17", "Sunny", 4, 18, "SW", 12, 78),
        ("2025-03-18", "Partly cloudy", 5, 17, "S", 10, 104),
        ("2025-03-19", "Cloudy", 6, 15, "E", 8, 121),
        ("2025-03-20", "Light rain", 4, 11, "NE", 15, 45),
        ("2025-03-21", "Sunny", 2, 14, "NW", 20, 38),
    ),
    "Shanghai": (
        ("2025-03-07", "Cloudy", 7, 13, "NE", 15, 58),
        ("2025-03-08", "Light rain", 8, 12, "E", 18, 42),
        ("2025-03-09", "Overcast", 8, 14, "E", 12, 61),
        ("2025-03-10", "Sunny", 7, 16, "N", 10, 70),
        ("2025-03-11", "Partly cloudy", 9, 17, "SE", 10, 76),
        ("2025-03-12", "Cloudy", 10, 16, "E", 12, 66),
        ("2025-03-13", "Light rain", 9, 14, "E", 15, 45),
        ("2025-03-14", "Overcast", 10, 17, "SE", 12, 68),
        ("2025-03-15", "Moderate rain", 11, 15, "E", 20, 35),
        ("2025-03-16", "Cloudy", 10, 18, "NE", 10, 57),
        ("2025-03-17", "Partly cloudy", 11, 19, "SE", 10, 72),
        ("2025-03-18", "Sunny", 12, 21, "S", 12, 84),
        ("2025-03-19", "Light rain", 12, 17, "E", 18, 40),
        ("2025-03-20", "Moderate rain", 10, 14, "NE", 22, 31),
        ("2025-03-21", "Cloudy", 9, 15, "N", 15, 49),
    ),
    "London": (
        ("2025-03-07", "Sunny intervals", 3, 11, "SW", 15, 28),
        ("2025-03-08", "Cloudy", 5, 12, "SW", 20, 31),
        ("2025-03-09", "Light rain", 6, 11, "W", 25, 22),
        ("2025-03-10", "Showers", 5, 10, "W", 30, 18),
        ("2025-03-11", "Sunny intervals", 2, 10, "NW", 20, 25),
        ("2025-03-12", "Fog", 1, 9, "E", 5, 46),
        ("2025-03-13", "Cloudy", 4, 10, "SW", 20, 34),
        ("2025-03-14", "Light rain", 5, 11, "W", 25, 24),
        ("2025-03-15", "Sunny intervals", 3, 12, "W", 15, 27),
        ("2025-03-16", "Showers", 6, 12, "SW", 30, 20),
        ("2025-03-17", "Cloudy", 6, 13, "S", 15, 33),
        ("2025-03-18", "Sunny", 4, 14, "SE", 10, 41),
        ("2025-03-19", "Sunny intervals", 5, 15, "S", 12, 38),
        ("2025-03-20", "Heavy rain", 7, 12, "SW", 35, 15),
        ("2025-03-21", "Cloudy", 6, 11, "W", 20, 26),
    ),
    "Guangzhou": (
        ("2025-03-07", "Cloudy", 15, 22, "NE", 10, 52),
        ("2025-03-08", "Light rain", 16, 21, "N", 12, 38),
        ("2025-03-09", "Fog", 17, 23, "SE", 6, 64),
        ("2025-03-10", "Overcast", 18, 25, "SE", 8, 70),
        ("2025-03-11", "Showers", 19, 26, "S", 12, 45),
        ("2025-03-12", "Thunderstorm", 20, 27, "S", 18, 36),
        ("2025-03-13", "Moderate rain", 18, 23, "N", 15, 30),
        ("2025-03-14", "Cloudy", 17, 24, "NE", 10, 55),
        ("2025-03-15", "Partly cloudy", 18, 26, "E", 10, 62),
        ("2025-03-16", "Sunny", 19, 28, "SE", 8, 78),
        ("2025-03-17", "Partly cloudy", 20, 28, "S", 10, 81),
        ("2025-03-18", "Showers", 21, 27, "S", 15, 47),
        ("2025-03-19", "Thunderstorm", 21, 26, "SW", 20, 33),
        ("2025-03-20", "Heavy rain", 19, 23, "N", 18, 28),
        ("2025-03-21", "Cloudy", 17, 22, "NE", 12, 44),
    ),
    "New York": (
        ("2025-03-07", "Sunny", 1, 12, "W", 20, 35),
        ("2025-03-08", "Partly cloudy", 3, 14, "SW", 15, 42),
        ("2025-03-09", "Cloudy", 2, 9, "NW", 35, 29),
        ("2025-03-10", "Sunny", -2, 7, "NW", 30, 24),
        ("2025-03-11", "Sunny", -1, 10, "W", 15, 31),
        ("2025-03-12", "Partly cloudy", 3, 15, "SW", 12, 44),
        ("2025-03-13", "Cloudy", 6, 17, "S", 15, 51),
        ("2025-03-14", "Sunny", 8, 20, "SW", 12, 57),
        ("2025-03-15", "Light rain", 9, 16, "S", 20, 33),
        ("2025-03-16", "Heavy rain", 7, 13, "SE", 30, 20),
        ("2025-03-17", "Cloudy", 4, 10, "NW", 25, 27),
        ("2025-03-18", "Sunny", 2, 11, "NW", 20, 30),
        ("2025-03-19", "Partly cloudy", 4, 13, "W", 15, 36),
        ("2025-03-20", "Snow showers", -1, 4, "N", 25, 22),
        ("2025-03-21", "Sunny", 0, 8, "NW", 20, 28),
    ),
}

_ALIASES: dict[str, str] = {
    "beijing": "Beijing", "北京": "Beijing", "peking": "Beijing",
    "shanghai": "Shanghai", "上海": "Shanghai",
    "london": "London", "伦敦": "London",
    "guangzhou": "Guangzhou", "广州": "Guangzhou", "canton": "Guangzhou",
    "new york": "New York", "newyork": "New York", "new york city": "New York",
    "nyc": "New York", "纽约": "New York",
}

# upper bound of the AQI band -> word used in the text
_AQI_WORDS: tuple[tuple[int, str], ...] = (
    (50, "good"), (100, "moderate"), (150, "unhealthy for sensitive groups"),
    (200, "poor"), (300, "very poor"),
)


def air_quality_word(aqi: int) -> str:
    """Return the word for an AQI value: good, moderate, ..., poor, very poor, hazardous."""
    for upper, word in _AQI_WORDS:
        if aqi <= upper:
            return word
    return "hazardous"


def cities() -> list[str]:
    """Return the cities that have weather data."""
    return list(_TABLE)


def canonical_city(city: str) -> str | None:
    """Return the table's name for `city` (case, spaces and Chinese names forgiven), else None."""
    if not isinstance(city, str):
        raise TypeError(f"city must be a string, got {type(city).__name__}")
    key = " ".join(city.split()).casefold().removesuffix("市")
    return _ALIASES.get(key)


def weather(city: str, date: _date | str) -> dict:
    """Return the weather of `city` on `date` (YYYY-MM-DD) as a dict; LookupError if no data."""
    day = parse_date(date, "date").isoformat()
    name = canonical_city(city)
    for row in _TABLE.get(name or "", ()):
        if row[0] == day:
            _, condition, low, high, wind_dir, wind_kmh, aqi = row
            return {
                "city": name, "date": day, "condition": condition,
                "min_c": low, "max_c": high,
                "wind_dir": wind_dir, "wind_kmh": wind_kmh, "wind": f"{wind_dir} {wind_kmh} km/h",
                "aqi": aqi, "air_quality": air_quality_word(aqi),
            }
    shown = name or " ".join(str(city).split())
    if shown.isascii() and shown.islower():
        shown = shown.title()  # 'paris' -> 'Paris'
    raise LookupError(f"no weather data for {shown} on {day}")


def format_weather(row: dict) -> str:
    """Render one weather dict as the tool's one-line text."""
    return (f"{row['city']} {row['date']}: {row['condition']}, {row['min_c']}°C to "
            f"{row['max_c']}°C, wind {row['wind']}, air quality {row['air_quality']} "
            f"(AQI {row['aqi']})")


def weather_text(city: str, date: _date | str) -> str:
    """Return the weather as one line of text, or an 'Error: ...' line (never raises)."""
    try:
        return format_weather(weather(city, date))
    except (LookupError, ValueError, TypeError) as exc:
        return f"Error: {exc}"
