CREATE TABLE "access_code" (
	"code" text PRIMARY KEY NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"redeemed_by" text,
	"redeemed_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "affirmation" (
	"id" text PRIMARY KEY NOT NULL,
	"position" integer NOT NULL,
	"text" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "harmonize_session" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"panel_id" char(2) NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "media_file" (
	"key" text PRIMARY KEY NOT NULL,
	"panel_id" char(2),
	"kind" text NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "panel" (
	"id" char(2) PRIMARY KEY NOT NULL,
	"position" integer NOT NULL,
	"solfeggio_hz" integer NOT NULL,
	"icon" text NOT NULL,
	"palette" jsonb NOT NULL,
	"name" jsonb NOT NULL,
	"description" jsonb NOT NULL,
	"info" jsonb NOT NULL,
	"ingredients" jsonb NOT NULL,
	CONSTRAINT "panel_solfeggio_hz_check" CHECK ("panel"."solfeggio_hz" in (174, 285, 396, 417, 528, 639, 741, 852, 963))
);
--> statement-breakpoint
ALTER TABLE "access_code" ADD CONSTRAINT "access_code_redeemed_by_user_id_fk" FOREIGN KEY ("redeemed_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "harmonize_session" ADD CONSTRAINT "harmonize_session_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "harmonize_session" ADD CONSTRAINT "harmonize_session_panel_id_panel_id_fk" FOREIGN KEY ("panel_id") REFERENCES "public"."panel"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_file" ADD CONSTRAINT "media_file_panel_id_panel_id_fk" FOREIGN KEY ("panel_id") REFERENCES "public"."panel"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "access_code_redeemed_by_idx" ON "access_code" USING btree ("redeemed_by");--> statement-breakpoint
CREATE INDEX "harmonize_session_user_idx" ON "harmonize_session" USING btree ("user_id","started_at");