"""The facts feed read for the Facts pane: a page of the feed or a search's hits under the
filters as typed (read as `memo facts` reads its options), and the next page as the cursor
nears the end. In app workers: the pane posts what it wants and draws what comes back."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from memo_tui.ui.controllers.base import Controller
from memo_tui.ui.text import plural
from memo_tui.ui.workers import superseded

if TYPE_CHECKING:
    from memo_tui.core.recall.search import Hit
    from memo_tui.ui.messages import FeedPageRequested, FeedRequested
    from memo_tui.ui.widgets.facts import FactsPane
    from store import FactFilter


class FactsController(Controller):
    def load(self, asked: FeedRequested) -> None:
        self.run_thread(self._load, asked, group="facts", exclusive=True)

    def _load(self, asked: FeedRequested) -> None:
        """The first page of the feed, or the search's hits, and what the info line says."""
        from memo_tui.core.recall.facts_filter import FactOptions, read_filter

        typed, store = asked.typed, self.services.store
        options = FactOptions(
            fact_types=asked.types,
            since=typed["since"],
            until=typed["until"],
            person=typed["person"],
            project=typed["project"],
            client=typed["client"],
            status=typed["status"],
        )
        read = read_filter(options, store)
        if typed["search"]:
            hits = self._search(typed["search"], read.flt)
            info = f"{plural(len(hits), 'result')} for {typed['search']!r}"
            facts = [hit.fact for hit in hits]
        else:
            facts = store.facts.page(read.flt, asked.page)
            more = len(facts) >= asked.page
            info = "newest first" + ("; more load as you scroll" if more else "")
        chosen = asked.types and not asked.hiding_excerpts  # a type the user picked
        if chosen or not replace(read.flt, fact_types=()).empty:
            info += " · filtered"
        if asked.hiding_excerpts:
            info += " · excerpts hidden (x shows them)"
        if read.problems:
            info += " · " + "; ".join(read.problems)
        people = store.facts.people_of(facts)
        if not superseded():
            self.from_thread(asked.pane.show, facts, people, read.flt, bool(typed["search"]), info)

    def _search(self, query: str, flt: FactFilter) -> list[Hit]:
        from memo_tui.core.recall.search import hybrid_search

        services = self.services
        embedder = None if services.embed.unavailable else services.embed.embedder
        result = hybrid_search(
            services.store,
            embedder,
            query,
            flt,
            limit=100,
            min_similarity=services.settings.min_similarity,
            index=services.vectors,
        )
        return result.hits

    def more(self, asked: FeedPageRequested) -> None:
        self.run_thread(self._more, asked, group="facts-more", exclusive=True)

    def _more(self, asked: FeedPageRequested) -> None:
        """The page after `asked.last`, for the pane to add if its feed did not move on."""
        from memo_tui.core.recall.facts_filter import page_after

        pane: FactsPane = asked.pane
        try:
            store = self.services.store
            page = page_after(store, asked.flt, asked.page, asked.last)
            people = store.facts.people_of(page)
        finally:
            self.from_thread(setattr, pane, "loading_more", False)
        self.from_thread(pane.more_shown, page, people, asked.flt, asked.last)
