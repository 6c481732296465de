CREATE TABLE "media_upload" (
	"id" uuid PRIMARY KEY NOT NULL,
	"operator_id" text NOT NULL,
	"name" text NOT NULL,
	"panel_id" char(2),
	"backing" boolean NOT NULL,
	"size" bigint NOT NULL,
	"content_type" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "media_upload" ADD CONSTRAINT "media_upload_operator_id_user_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_upload_updated_idx" ON "media_upload" USING btree ("updated_at");