-- Rooms and their events (docs/rooms.md "Several nodes"): the same shape as
-- the SQLite file (server/src/sqlite.rs), JSON text in both. (room, seq) is
-- the key every node writes under: of two nodes writing the same event
-- number of a room, the second is refused and reads the room again.
CREATE TABLE rooms (
    key bigserial PRIMARY KEY,
    id text NOT NULL UNIQUE,
    spec text NOT NULL,
    -- Unix ms, from the spec; joined: a second seat was taken (rooms nobody
    -- joined are deleted after a week).
    created bigint NOT NULL,
    joined boolean NOT NULL DEFAULT false
);
CREATE INDEX rooms_unjoined ON rooms (created) WHERE NOT joined;

CREATE TABLE events (
    room bigint NOT NULL REFERENCES rooms (key) ON DELETE CASCADE,
    seq bigint NOT NULL,
    event text NOT NULL,
    PRIMARY KEY (room, seq)
);
