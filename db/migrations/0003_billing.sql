CREATE TABLE "billing_customer" (
	"user_id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"line1" text,
	"line2" text,
	"city" text,
	"state" text,
	"postal_code" text,
	"country" char(2),
	"default_payment_method_id" text,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_customer_customer_id_unique" UNIQUE("customer_id")
);
--> statement-breakpoint
CREATE TABLE "billing_payment_method" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"brand" text NOT NULL,
	"last4" char(4) NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"card_type" text,
	"created_at" timestamp with time zone NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_price" (
	"id" text PRIMARY KEY NOT NULL,
	"product_id" text NOT NULL,
	"nickname" text NOT NULL,
	"plan" text NOT NULL,
	"unit_amount" integer NOT NULL,
	"currency" text NOT NULL,
	"active" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_idempotency_key" (
	"key" text PRIMARY KEY NOT NULL,
	"object_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_object" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"customer" text,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_object_id_prefix" CHECK ("sandbox_object"."id" ~ '^[a-z]+_[A-Za-z0-9]+$')
);
--> statement-breakpoint
ALTER TABLE "billing_customer" ADD CONSTRAINT "billing_customer_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_payment_method" ADD CONSTRAINT "billing_payment_method_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_payment_method_user_idx" ON "billing_payment_method" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "billing_price_active_idx" ON "billing_price" USING btree ("active","created_at");--> statement-breakpoint
CREATE INDEX "sandbox_object_type_idx" ON "sandbox_object" USING btree ("type","created_at");--> statement-breakpoint
CREATE INDEX "sandbox_object_customer_idx" ON "sandbox_object" USING btree ("customer","type");