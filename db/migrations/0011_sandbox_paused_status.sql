-- The sandbox pauses a plan as Stripe's pause endpoint does: its status becomes `paused` and no
-- invoice is made until it resumes. Plans paused before it (a pause of collection, with the
-- status left `active`) keep their pause under the new status, and the old field goes.
UPDATE "sandbox_object"
SET "data" = jsonb_set("data" - 'pause_collection', '{status}', '"paused"'::jsonb)
WHERE "type" = 'subscription'
  AND "data" ->> 'status' = 'active'
  AND jsonb_typeof("data" -> 'pause_collection') = 'object';
--> statement-breakpoint
UPDATE "sandbox_object"
SET "data" = "data" - 'pause_collection'
WHERE "type" = 'subscription' AND "data" ? 'pause_collection';
