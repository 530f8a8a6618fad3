// Location: the search settings (centre, radius, count, categories), saved per user a
// moment after the last change; GPS, an address, a map click ('Set as center') move the centre.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ADDRESS_EMPTY, ADDRESS_NOT_FOUND } from '../../../core/messages';
import type { GeocodePrecision } from '../../../core/addresses';
import { api, ApiError, type Me, type SearchSettings } from '../../api';
import { useDialogs } from '../../dialogs';
import { GPS_MAX_AGE_MS, GPS_TIMEOUT_MS, initialSettings } from '../../defaults';
import { GPS_FAILED, GPS_UNAVAILABLE } from '../../texts';
import { userMessage } from '../userMessage';

const coordsLabel = (lat: number, lng: number) => `${lat.toFixed(5)}, ${lng.toFixed(5)}`;

export type LocationFeature = ReturnType<typeof useLocation>;

export function useLocation(me: Me) {
  const { notify } = useDialogs();
  const [settings, setSettings] = useState<SearchSettings>(() => initialSettings(me.searchSettings));
  const [picked, setPicked] = useState<{ lat: number; lng: number } | null>(null);
  const [locating, setLocating] = useState(false);
  /** How exactly the typed address was found; null for a point from the map or GPS (exact as it is). */
  const [precision, setPrecision] = useState<GeocodePrecision | null>(null);

  // Settings are saved per user, a moment after the last change.
  const firstSettings = useRef(true);
  useEffect(() => {
    if (firstSettings.current) {
      firstSettings.current = false;
      return;
    }
    const timer = window.setTimeout(() => {
      api
        .updateMe({ searchSettings: settings })
        .catch((e: unknown) => console.warn('saving search settings failed', e));
    }, 800);
    return () => window.clearTimeout(timer);
  }, [settings]);

  const patchSettings = useCallback(
    (patch: Partial<SearchSettings>) => setSettings((s) => ({ ...s, ...patch })),
    [],
  );

  /** Move the centre; the label is the given one or, failing that, the reverse-geocoded one. */
  const moveCenter = useCallback((lat: number, lng: number, label?: string) => {
    setSettings((s) => ({ ...s, lat, lng, label: label ?? coordsLabel(lat, lng) }));
    setPicked(null);
    setPrecision(null);
    if (label) return;
    api.reverseGeocode(lat, lng).then(
      (found) => {
        if (!found.label) return;
        setSettings((s) => (s.lat === lat && s.lng === lng ? { ...s, label: found.label } : s));
      },
      (e: unknown) => console.warn('reverse geocoding failed', e),
    );
  }, []);

  const onMapCenter = useCallback((lat: number, lng: number) => moveCenter(lat, lng), [moveCenter]);
  const onMapPick = useCallback((lat: number, lng: number) => setPicked({ lat, lng }), []);
  const clearPicked = useCallback(() => setPicked(null), []);

  const locate = () => {
    if (!('geolocation' in navigator)) {
      notify(GPS_UNAVAILABLE, 'error');
      return;
    }
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        setLocating(false);
        moveCenter(pos.coords.latitude, pos.coords.longitude);
      },
      (error) => {
        setLocating(false);
        console.warn('GPS failed', error);
        notify(GPS_FAILED, 'error');
      },
      { enableHighAccuracy: true, timeout: GPS_TIMEOUT_MS, maximumAge: GPS_MAX_AGE_MS },
    );
  };

  const setAddress = async (address: string): Promise<boolean> => {
    if (!address.trim()) {
      notify(ADDRESS_EMPTY, 'error');
      return false;
    }
    try {
      const found = await api.geocode(address.trim());
      moveCenter(found.lat, found.lng, found.label || address.trim());
      setPrecision(found.precision ?? null);
      return true;
    } catch (error) {
      console.warn('geocoding failed', error);
      // Not found (or the lookup failed on the server): ADDRESS_NOT_FOUND; another refusal in the server's words.
      notify(
        error instanceof ApiError && error.status === 404
          ? ADDRESS_NOT_FOUND
          : userMessage(error, ADDRESS_NOT_FOUND),
        'error',
      );
      return false;
    }
  };

  return {
    settings,
    patchSettings,
    moveCenter,
    picked,
    clearPicked,
    locating,
    precision,
    locate,
    setAddress,
    onMapCenter,
    onMapPick,
  };
}
