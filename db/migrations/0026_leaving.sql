CREATE TABLE "data_export" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"status" text DEFAULT 'preparing' NOT NULL,
	"step" integer DEFAULT 0 NOT NULL,
	"storage_key" text,
	"size" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ready_at" timestamp with time zone,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "kept_invoice" (
	"id" text PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"status" text NOT NULL,
	"billing_reason" text NOT NULL,
	"currency" text NOT NULL,
	"subtotal" integer NOT NULL,
	"total" integer NOT NULL,
	"amount_paid" integer NOT NULL,
	"amount_refunded" integer NOT NULL,
	"lines" jsonb NOT NULL,
	"customer_name" text NOT NULL,
	"customer_address" jsonb,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"kept_at" timestamp with time zone DEFAULT now() NOT NULL,
	"keep_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "data_export" ADD CONSTRAINT "data_export_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_export_user_idx" ON "data_export" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "data_export_expires_idx" ON "data_export" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "data_export_preparing_idx" ON "data_export" USING btree ("user_id") WHERE "data_export"."status" = 'preparing';--> statement-breakpoint
CREATE INDEX "kept_invoice_keep_until_idx" ON "kept_invoice" USING btree ("keep_until");--> statement-breakpoint
CREATE INDEX "kept_invoice_number_idx" ON "kept_invoice" USING btree ("number");