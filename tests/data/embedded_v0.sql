-- An embedded store file as the code before numbered migrations wrote it (PRAGMA user_version 0):
-- its schema exactly as sqlite_master held it, and the rows of a small namespace. Left out on
-- purpose: the fulltext rows, the day rows, the vector slots and the meta versions, which an
-- older file lacks and the store rebuilds when it opens one.
PRAGMA user_version = 0;
CREATE TABLE turns (
    namespace TEXT NOT NULL, id TEXT NOT NULL, session TEXT NOT NULL, speaker TEXT NOT NULL,
    time TEXT NOT NULL, ts REAL NOT NULL, text TEXT NOT NULL,
    agent TEXT, state TEXT NOT NULL DEFAULT 'done', chunk TEXT, failure TEXT,
    PRIMARY KEY (namespace, id)
);
CREATE TABLE events (
    rid INTEGER PRIMARY KEY, namespace TEXT NOT NULL, id TEXT NOT NULL,
    ts REAL NOT NULL, status TEXT NOT NULL, data TEXT NOT NULL, embedding BLOB, vslot INTEGER,
    UNIQUE (namespace, id)
);
CREATE TABLE entities (
    namespace TEXT NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY (namespace, id)
);
CREATE TABLE entity_names (
    namespace TEXT NOT NULL, name TEXT NOT NULL, entity_id TEXT NOT NULL,
    PRIMARY KEY (namespace, name, entity_id)
);
CREATE TABLE topics (
    namespace TEXT NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL, vslot INTEGER,
    PRIMARY KEY (namespace, id)
);
CREATE TABLE links (
    namespace TEXT NOT NULL, kind TEXT NOT NULL, source TEXT NOT NULL, target TEXT NOT NULL,
    props TEXT NOT NULL,
    PRIMARY KEY (namespace, kind, source, target)
);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE leases (
    namespace TEXT NOT NULL, name TEXT NOT NULL, holder TEXT NOT NULL, expires REAL NOT NULL,
    PRIMARY KEY (namespace, name)
);
CREATE TABLE jobs (
    id TEXT PRIMARY KEY, namespace TEXT NOT NULL, kind TEXT NOT NULL, started REAL NOT NULL,
    data TEXT NOT NULL
);
CREATE TABLE event_days (
    namespace TEXT NOT NULL, day TEXT NOT NULL, rid INTEGER NOT NULL,
    PRIMARY KEY (namespace, day, rid)
);
CREATE TABLE vector_spaces (
    namespace TEXT PRIMARY KEY, dim INTEGER NOT NULL, slots INTEGER NOT NULL
);
CREATE TABLE patterns (
    namespace TEXT NOT NULL, id TEXT NOT NULL, status TEXT NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY (namespace, id)
);
CREATE TABLE feedback (
    namespace TEXT NOT NULL, id TEXT NOT NULL, at REAL NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY (namespace, id)
);
CREATE TABLE entity_revisions (namespace TEXT PRIMARY KEY, rev INTEGER NOT NULL);
CREATE INDEX turns_by_time ON turns (namespace, ts);
CREATE INDEX events_by_time ON events (namespace, ts);
CREATE INDEX links_by_target ON links (namespace, target);
CREATE INDEX links_by_source ON links (namespace, source);
CREATE INDEX jobs_by_start ON jobs (namespace, started);
CREATE INDEX event_days_by_rid ON event_days (rid);
CREATE INDEX feedback_by_time ON feedback (namespace, at, id);
CREATE INDEX events_by_slot ON events (namespace, vslot);
CREATE INDEX turns_pending ON turns (namespace, state, chunk, ts);
CREATE INDEX topics_by_slot ON topics (namespace, vslot);
CREATE INDEX events_by_id_ts ON events (namespace, id, ts, rid);
CREATE INDEX links_by_kind_target ON links (namespace, kind, target, source);
CREATE INDEX events_by_session ON events (namespace, json_extract(data, '$.session'), ts);
CREATE INDEX events_open_questions ON events (namespace, ts)
    WHERE json_array_length(data, '$.open_slots') > 0;
CREATE INDEX events_by_tier
    ON events (namespace, json_extract(data, '$.tier'), status, vslot, id);
CREATE VIRTUAL TABLE events_fts USING fts5 (tokens, tokenize = 'unicode61');
CREATE VIRTUAL TABLE turns_fts USING fts5 (
    tokens, namespace UNINDEXED, turn_id UNINDEXED, tokenize = 'unicode61'
);
CREATE TRIGGER entities_revise_insert AFTER INSERT ON entities
    
    BEGIN
        INSERT INTO entity_revisions VALUES (NEW.namespace, 1)
        ON CONFLICT (namespace) DO UPDATE SET rev = rev + 1;
    END;
CREATE TRIGGER entities_revise_update AFTER UPDATE ON entities
    
    BEGIN
        INSERT INTO entity_revisions VALUES (NEW.namespace, 1)
        ON CONFLICT (namespace) DO UPDATE SET rev = rev + 1;
    END;
CREATE TRIGGER entities_revise_delete AFTER DELETE ON entities
    
    BEGIN
        INSERT INTO entity_revisions VALUES (OLD.namespace, 1)
        ON CONFLICT (namespace) DO UPDATE SET rev = rev + 1;
    END;
CREATE TRIGGER links_revise_insert AFTER INSERT ON links
    WHEN NEW.kind IN ('ALIAS_OF', 'CANDIDATE_ALIAS', 'WORKS_AT')
    BEGIN
        INSERT INTO entity_revisions VALUES (NEW.namespace, 1)
        ON CONFLICT (namespace) DO UPDATE SET rev = rev + 1;
    END;
CREATE TRIGGER links_revise_update AFTER UPDATE ON links
    WHEN NEW.kind IN ('ALIAS_OF', 'CANDIDATE_ALIAS', 'WORKS_AT')
    BEGIN
        INSERT INTO entity_revisions VALUES (NEW.namespace, 1)
        ON CONFLICT (namespace) DO UPDATE SET rev = rev + 1;
    END;
CREATE TRIGGER links_revise_delete AFTER DELETE ON links
    WHEN OLD.kind IN ('ALIAS_OF', 'CANDIDATE_ALIAS', 'WORKS_AT')
    BEGIN
        INSERT INTO entity_revisions VALUES (OLD.namespace, 1)
        ON CONFLICT (namespace) DO UPDATE SET rev = rev + 1;
    END;
INSERT INTO turns (namespace, id, session, speaker, time, ts, text, agent, state, chunk, failure) VALUES ('old', 't1', 's1', 'Ana', '2026-03-01T09:00:00+00:00', 1772355600.0, 'Ana booked the Lisbon flight for May 4.', NULL, 'pending', '0001772355600.000000|t1', NULL);
INSERT INTO turns (namespace, id, session, speaker, time, ts, text, agent, state, chunk, failure) VALUES ('old', 't2', 's1', 'Ben', '2026-03-01T10:00:00+00:00', 1772359200.0, 'Ben will pay the hotel deposit.', NULL, 'pending', '0001772355600.000000|t1', NULL);
INSERT INTO events (rid, namespace, id, ts, status, data, embedding) VALUES (1, 'old', 'e1', 1772355600.0, 'active', '{"id":"e1","namespace":"old","text":"Ana booked the Lisbon flight for May 4.","source_ids":["t1"],"session":"s1","speaker":"user","agent":null,"clause":0,"time":"2026-03-01T09:00:00Z","deadline":null,"dates":[],"action":null,"object":null,"participants":[],"location":null,"quantities":[],"negated":false,"condition":null,"topic":null,"keywords":[],"atoms":[],"verbatim":false,"lang":"en","status":"active","is_task":false,"trigger":"information","importance":0.5,"access_count":0,"last_accessed":null,"tier":"hot","valid_from":null,"valid_to":null,"created_at":null,"open_slots":[]}', X'0000803f0000000000000000000000000000000000000000000000000000003f');
INSERT INTO events (rid, namespace, id, ts, status, data, embedding) VALUES (2, 'old', 'e2', 1772359200.0, 'active', '{"id":"e2","namespace":"old","text":"Ben will pay the hotel deposit.","source_ids":["t2"],"session":"s1","speaker":"user","agent":null,"clause":0,"time":"2026-03-01T10:00:00Z","deadline":null,"dates":[],"action":null,"object":null,"participants":[],"location":null,"quantities":[],"negated":false,"condition":null,"topic":null,"keywords":[],"atoms":[],"verbatim":false,"lang":"en","status":"active","is_task":false,"trigger":"information","importance":0.5,"access_count":0,"last_accessed":null,"tier":"hot","valid_from":null,"valid_to":null,"created_at":null,"open_slots":[]}', X'000000000000803f000000000000000000000000000000000000003f00000000');
INSERT INTO entities (namespace, id, data) VALUES ('old', 'ana', '{"id":"ana","namespace":"old","name":"Ana","type":"person","aliases":[],"embedding":null}');
INSERT INTO entities (namespace, id, data) VALUES ('old', 'ben', '{"id":"ben","namespace":"old","name":"Ben","type":"person","aliases":["Benjamin"],"embedding":null}');
INSERT INTO entity_names (namespace, name, entity_id) VALUES ('old', 'ana', 'ana');
INSERT INTO entity_names (namespace, name, entity_id) VALUES ('old', 'ben', 'ben');
INSERT INTO entity_names (namespace, name, entity_id) VALUES ('old', 'benjamin', 'ben');
INSERT INTO topics (namespace, id, data) VALUES ('old', 'trip', '{"id":"trip","namespace":"old","label":"trip","keywords":[],"centroid":[0.5,0.5,0.0,0.0,0.0,0.0,0.0,0.0],"size":0}');
INSERT INTO links (namespace, kind, source, target, props) VALUES ('old', 'MENTIONS', 'e1', 'ana', '{}');
INSERT INTO links (namespace, kind, source, target, props) VALUES ('old', 'MENTIONS', 'e2', 'ben', '{}');
INSERT INTO links (namespace, kind, source, target, props) VALUES ('old', 'NEXT', 'e1', 'e2', '{}');
