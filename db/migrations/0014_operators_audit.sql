CREATE TABLE "audit_entry" (
	"id" text PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" text,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"member_id" text,
	"member_email" text,
	"before" jsonb,
	"after" jsonb,
	"reason" text
);
--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "role" text DEFAULT 'member' NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_entry_at_idx" ON "audit_entry" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_entry_member_idx" ON "audit_entry" USING btree ("member_id","at");--> statement-breakpoint
ALTER TABLE "user" ADD CONSTRAINT "user_role_check" CHECK ("user"."role" in ('member', 'operator'));--> statement-breakpoint
-- The audit log is written once and never changed or deleted, whoever asks: the application
-- has no such query, and the database refuses one anyway.
CREATE FUNCTION "audit_entry_unchangeable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'audit entries are never changed or deleted';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_entry_unchangeable" BEFORE UPDATE OR DELETE ON "audit_entry" FOR EACH ROW EXECUTE FUNCTION "audit_entry_unchangeable"();--> statement-breakpoint
CREATE TRIGGER "audit_entry_not_truncated" BEFORE TRUNCATE ON "audit_entry" FOR EACH STATEMENT EXECUTE FUNCTION "audit_entry_unchangeable"();