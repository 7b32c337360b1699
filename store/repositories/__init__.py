"""The store's repositories, one per area: `store.captures`, `store.people`, `store.runs`, …"""
