CREATE TABLE "billing_preference" (
	"user_id" text PRIMARY KEY NOT NULL,
	"renewal_reminders" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_preference" ADD CONSTRAINT "billing_preference_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;