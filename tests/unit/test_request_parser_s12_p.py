"""Parser causes found on unseen phrasings (session S12 P): each test's sentences are its own."""

from __future__ import annotations

from datetime import date

from prefect_autodata.agents.offline.instruction import parse_request

TODAY = date(2025, 6, 1)


def _p(text: str):
    return parse_request(text, today=TODAY)


def _names(r):
    return [f.normalized for f in r.fields]


def _filters(r):
    return [(f.field, f.op, f.value) for f in r.filters]


def test_and_their_opens_the_field_list_its_first_item_included():
    r = _p("cat breeds and their coat length, origin country and typical weight")
    assert r.entity.singular == "cat breed"
    assert _names(r) == ["coat_length", "origin_country", "typical_weight"]
    r = _p("wind farms in Scotland built between 2010 and 2015 and their owner, turbine count and capacity")
    assert _names(r) == ["owner", "turbine_count", "capacity"]
    assert ("location", "eq", "Scotland") in _filters(r)
    r = _p("museums with at most 20 rooms and their name, curator and ticket price")
    assert _names(r) == ["name", "curator", "ticket_price"]


def test_a_volume_unit_after_in_is_the_fields_unit_not_a_clause():
    r = _p("oil wells in Texas and their daily output in barrels, depth and operator")
    assert _names(r) == ["daily_output", "depth", "operator"]
    r = _p("Collect every water tank with name, volume in litres and owner")
    assert _names(r) == ["name", "volume", "owner"]


def test_a_wish_or_request_verb_opening_a_list_is_no_word_of_its_first_field():
    r = _p("Where are the ski resorts in Austria? We need resort name, top elevation and lift count")
    assert _names(r) == ["resort_name", "top_elevation", "lift_count"]
    r = _p("bakeries in Ghent with a rating of at least 4 - want the name, street and opening hours")
    assert _names(r) == ["name", "street", "opening_hours"]
    r = _p("Which senators voted on bill 12? Give senator name, state and vote.")
    assert _names(r) == ["senator_name", "state", "vote"]


def test_a_relative_clause_without_its_pronoun_and_for_each_records_end_no_field_name():
    r = _p("Her stage credits from the theatre archive: title, season and the part she sang.")
    assert _names(r) == ["title", "season", "part"]
    r = _p("Collect the storm list: name, date, peak wind in knots and basin for each storm.")
    assert _names(r) == ["name", "date", "peak_wind", "basin"]


def test_a_record_noun_that_is_no_english_word_is_the_dictionary_word_it_slips_from():
    assert _p("plumbres in Leeds with name and phone").entity.singular == "plumber"
    assert _p("Get every lighthuose in Maine with name and height").entity.singular == "lighthouse"
    assert _p("all musuems with name and address").entity.singular == "museum"
    # a short coinage, a spelling the dictionary lacks and a real word stay as written
    assert _p("Collect every ebook with title and price").entity.singular == "ebook"
    assert _p("all repos on https://code.example.org with name and stars").entity.singular == "repo"
    assert _p("every webinar with title and date").entity.singular == "webinar"


def test_a_question_whose_verb_follows_its_question_word_names_the_records_it_counts():
    r = _p("What's arriving next? For each arrival give the train number, origin and platform.")
    assert r.entity.singular == "arrival"
    assert _names(r) == ["train_number", "origin", "platform"]
    r = _p("How did each senator vote on bill 12? Give senator name, state and vote.")
    assert r.entity.singular == "senator"
    assert _p("What is playing tonight? For every film give title and start time").entity.singular == "film"


def test_a_purpose_opening_may_end_in_an_imperative_request():
    r = _p("I'm moving to Porto, so collect apartments in Porto with rent and size")
    assert r.entity.singular == "apartment" and _names(r) == ["rent", "size"]


def test_top_and_a_number_word_count_the_records_and_a_title_field_names_them():
    r = _p("Top five at the chart this week: song title, artist and weeks on chart")
    assert r.entity.singular == "song" and r.coverage == "top 5"
    assert _p("Top three bakeries in Lyon with name and rating").entity.singular == "bakery"


def test_brackets_closing_a_list_item_name_fields():
    # a bracketed list enumerates the fields the item means
    r = _p(
        "Collect every game with the date, venue and the points scored by each (home points, away points)."
    )
    assert _names(r) == ["date", "venue", "home_point", "away_point"]
    # a clause describing a field, its name in brackets
    r = _p("List the threads with thread title, who opened it (starter), replies and views.")
    assert _names(r) == ["thread_title", "starter", "reply", "view"]
    # another name of the field: an alias the columns may be labelled by
    r = _p("Collect the pitchers with name, earned run average (ERA) and wins.")
    era = next(f for f in r.fields if f.normalized == "earned_run_average")
    assert era.aliases == ["ERA"] and _names(r) == ["name", "earned_run_average", "win"]
    # a unit, an aside and a list of the records' fields after a comparison stay as before
    r = _p("Collect the towers with name, height (m), status (open or closed) and city.")
    assert _names(r) == ["name", "height", "status", "city"] and all(not f.aliases for f in r.fields)
    r = _p("podcasts with more than 900 ratings (title, host, rating count)")
    assert _names(r) == ["title", "host", "rating_count"]


def test_a_unit_after_in_is_no_place():
    r = _p("weather readings in Norway with station, temperature in Celsius and wind speed")
    assert _filters(r) == [("location", "eq", "Norway")]
    assert _names(r) == ["station", "temperature", "wind_speed"]


def test_a_name_ending_in_a_plural_common_noun_after_in_is_a_category_not_a_place():
    r = _p("For each deal in Home Appliances, open it and get the title, price and discount")
    assert _filters(r) == [("category", "eq", "Home Appliances")]
    r = _p("Collect every listing in Garden Tools with title and price")
    assert _filters(r) == [("category", "eq", "Garden Tools")]
    # the plurals places end in stay places
    assert _filters(_p("hotels in the Virgin Islands with name and price")) == [
        ("location", "eq", "Virgin Islands")
    ]
    assert _filters(_p("homes for sale in Thousand Oaks with price")) == [("location", "eq", "Thousand Oaks")]
    assert _filters(_p("ski lodges in the Rocky Mountains with name")) == [
        ("location", "eq", "Rocky Mountains")
    ]


def test_a_field_list_after_a_second_clause_or_with_a_short_word_after_to_is_read_whole():
    r = _p("For each car in these results open the detail page and get make, model, price and mileage.")
    assert _names(r) == ["make", "model", "price", "mileage"]
    r = _p("Collect every auction with lot title, bids, time to go and current bid.")
    assert _names(r) == ["lot_title", "bid", "time_to_go", "current_bid"]


def test_an_abbreviation_finishing_a_field_name_is_no_value_to_filter_by():
    r = _p("Get the division standings with team, wins, losses, win PCT, PTS")
    assert _names(r) == ["team", "win", "loss", "win_pct", "pts"] and _filters(r) == []
    r = _p("Collect the players with name, team, points AVG and rebounds")
    assert _names(r) == ["name", "team", "points_avg", "rebound"] and _filters(r) == []
    # a capitalised value after a field word stays a filter
    assert ("genre", "eq", "Comedy") in _filters(
        _p("Collect the films with genre Comedy, with title and year")
    )


def test_values_listed_after_for_are_one_of_several():
    from prefect_autodata.agents.induction.filters import row_filter

    rows = [
        {"film": "Heat", "type": "Drama"},
        {"film": "Up", "type": "Animation"},
        {"film": "Rocky", "type": "Sport"},
    ]
    r = _p("Compile a list of movies for Drama, Sport and Comedy with film and type")
    assert _filters(r) == [("*", "in", ["Drama", "Sport", "Comedy"])]
    code, _ = row_filter(r, ["film", "type"])
    ns: dict = {}
    exec(compile(code, "<filter>", "exec"), ns)
    assert [x["film"] for x in ns["transform"](rows)] == ["Heat", "Rocky"]
    assert _p("Collect movies for Drama with title and year").filters[0].op == "eq"
    assert _filters(_p("Collect series for Crime, Thriller, with title")) == [
        ("*", "in", ["Crime", "Thriller"])
    ]


def test_a_trip_from_one_place_to_another_is_origin_and_destination():
    r = _p("Find every train from Leeds to York next Friday with departure time and price")
    assert _filters(r)[:2] == [("origin", "eq", "Leeds"), ("destination", "eq", "York")]
    assert ("location", "eq", "Leeds") not in _filters(r)
    r = _p("Collect the bus routes from the Old Town to Harbour Point with route number and fare")
    assert _filters(r) == [("origin", "eq", "Old Town"), ("destination", "eq", "Harbour Point")]
    # months and weekdays are a time, not a trip
    assert _filters(_p("concerts from March to June with artist and venue")) == []


def test_a_participle_after_a_named_value_ends_the_value():
    r = _p("Get all rockets with operator Blue Origin launched in 2024, with name and payload")
    assert ("operator", "eq", "Blue Origin") in _filters(r)
    assert ("genre", "eq", "Comedy drama") in _filters(
        _p("Collect films with genre Comedy drama, with title")
    )


def test_features_written_with_an_article_give_way_to_the_field_list_after_a_colon():
    r = _p(
        "grants with a budget of at least $20,000 and a deadline in the next 30 days: title, funder, budget"
    )
    assert _names(r) == ["title", "funder", "budget"]
    assert ("budget", "ge", 20000) in _filters(r)
    # a field list before the colon is kept
    r = _p("Collect the hotels with name and price: only the ones in Rome, Milan")
    assert _names(r) == ["name", "price"]


def test_two_bare_words_after_to_closing_an_item_are_part_of_its_name():
    r = _p("guesthouses in Bergen with a rating above 8 - name, price and walk to old town")
    assert _names(r) == ["name", "price", "walk_to_old_town"]
    # a determiner after "to" still ends the list
    r = _p("Collect the books with title and author to the catalog of my library")
    assert _names(r) == ["title", "author"]


def test_a_rate_word_is_how_often_records_come_not_a_field():
    r = _p("Get MSFT prices over the last 10 days: the daily open, high and close")
    assert _names(r)[:3] == ["open", "high", "close"]
    r = _p("Share prices (daily, volume) for the ticker NVDA in 2024")
    assert _names(r) == ["volume"]
    # a field whose name holds a rate word keeps it
    assert _names(_p("Collect jobs with title, hourly wage and employer")) == [
        "title",
        "hourly_wage",
        "employer",
    ]


def test_the_site_searched_for_the_counted_records_is_no_record():
    r = _p("Scrape https://halls.example.org/list for every concert hall with name and seats")
    assert r.entity.singular == "concert hall" and _names(r) == ["name", "seat"]
    assert _p("Check this page for all the bakeries with name and rating").entity.singular == "bakery"


def test_a_pair_of_dashes_around_a_list_brackets_it():
    r = _p("I want the glaciers — name, area and length — for Iceland")
    assert r.entity.singular == "glacier" and _names(r) == ["name", "area", "length"]
