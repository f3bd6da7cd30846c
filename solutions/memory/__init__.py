"""Memory across sessions: a SQLite store, its summary in the prompt, and recovery of a bad file.

Built in lesson 08 (Memory).
"""
from solutions.memory.agent import facts_from_trace, remembering_agent, replaying_agent
from solutions.memory.recovery import Opened, damaged_name, open_store
from solutions.memory.store import (DEFAULT_PATH, SCHEMA_VERSION, connect, fact_keys, latest_facts,
                                    preferences, recall_fact, save_fact, save_progress,
                                    set_preference, start_session, table_counts, task_progress)
from solutions.memory.summary import state_summary, with_memory

__all__ = ["facts_from_trace", "remembering_agent", "replaying_agent", "Opened", "damaged_name",
           "open_store", "DEFAULT_PATH", "SCHEMA_VERSION", "connect", "fact_keys", "latest_facts",
           "preferences", "recall_fact", "save_fact", "save_progress", "set_preference",
           "start_session", "table_counts", "task_progress", "state_summary", "with_memory"]
