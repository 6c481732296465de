-- The console's search by any part of an e-mail or a name (user_search_idx) needs trigrams.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "complimentary_access" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"reason" text NOT NULL,
	"granted_by" text NOT NULL,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ends_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"ended_by" text,
	"end_reason" text
);
--> statement-breakpoint
ALTER TABLE "complimentary_access" ADD CONSTRAINT "complimentary_access_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "complimentary_access_user_idx" ON "complimentary_access" USING btree ("user_id","granted_at");--> statement-breakpoint
CREATE INDEX "user_created_idx" ON "user" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "user_search_idx" ON "user" USING gin ((lower("email") || ' ' || lower("name")) gin_trgm_ops);