#!/usr/bin/env python3
"""Puts files into an S3-compatible store with boto3 (tests: moto's server on loopback).

  s3-put.py ENDPOINT BUCKET FILE[=KEY] …
Credentials from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (any value for moto); the bucket is made.
"""
import os, sys

try:
    import boto3
except ImportError as error:
    sys.exit(f"s3-put.py needs boto3 (pip install boto3): {error}")

endpoint, bucket = sys.argv[1], sys.argv[2]
s3 = boto3.client("s3", endpoint_url=endpoint, region_name=os.environ.get("AWS_REGION", "us-east-1"),
                  aws_access_key_id=os.environ.get("AWS_ACCESS_KEY_ID", "testing"),
                  aws_secret_access_key=os.environ.get("AWS_SECRET_ACCESS_KEY", "testing"))
s3.create_bucket(Bucket=bucket)
for spec in sys.argv[3:]:
    path, _, key = spec.partition("=")
    s3.upload_file(path, bucket, key or os.path.basename(path))
