CREATE TABLE "client_photo" (
	"user_id" text NOT NULL,
	"number" integer NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_photo_user_id_number_pk" PRIMARY KEY("user_id","number")
);
--> statement-breakpoint
CREATE TABLE "client_record" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"birth_date" date,
	"affirmation" text NOT NULL,
	"photo_number" integer,
	"consent_at" timestamp with time zone NOT NULL,
	"aura_pictures_left" smallint[] DEFAULT '{}'::smallint[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_scan" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"signature" text,
	"aura_picture" smallint,
	"chakras" smallint[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "client_photo" ADD CONSTRAINT "client_photo_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_record" ADD CONSTRAINT "client_record_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_scan" ADD CONSTRAINT "client_scan_client_id_client_record_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client_record"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_photo_recent_idx" ON "client_photo" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "client_record_name_idx" ON "client_record" USING btree ("user_id",lower("first_name" || ' ' || "last_name"),"id");--> statement-breakpoint
CREATE INDEX "client_scan_client_idx" ON "client_scan" USING btree ("client_id","created_at");